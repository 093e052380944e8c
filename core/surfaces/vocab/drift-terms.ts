/**
 * The phrases the drift generator (drift/) writes besides renamed words: mandatory flags and their accepted
 * values, literal code prefixes, labels and keys of structured strings, and the keys and states of a wrapped
 * response. Names are given as words; the generator writes them in one of the name styles of synonyms.ts.
 * Nearly every word here also belongs to a synonym group of synonyms.ts, so that a generated surface can be
 * drifted again with new words (a name without any known word gets a qualifier word instead).
 */
import type { KernelToolName } from '../../world/kernel/kernel.ts';

/** Names of mandatory flags, as words (`['Return', 'Result']` → `ReturnResult`, `return_result`, …). */
export const FLAG_NAMES: readonly (readonly string[])[] = [
  ['Return', 'Result'],
  ['Return', 'Value'],
  ['Confirm'],
  ['Confirm', 'Call'],
  ['Show', 'Output'],
  ['Include', 'Details'],
  ['Strict', 'Mode'],
  ['Execute', 'Now'],
  ['Verbose'],
  ['Acknowledge'],
  ['Full', 'Response'],
  ['Enable', 'Output'],
  ['Apply', 'Now'],
];

/**
 * Accepted values of a mandatory flag (the adapter compares with Python `==`, so `true` also accepts `1`).
 * The first value is the one documented and written by translations.
 */
export const FLAG_VALUES: readonly (readonly (string | boolean)[])[] = [
  ['True', 'true', true],
  ['true', true],
  ['yes', 'Yes', 'YES'],
  ['on', 'On'],
  ['1'],
  ['enabled'],
  [true],
];

/**
 * Literal prefixes for code parameters; `{lang}` becomes `SQL` or `Python`. The two ToolQA-D prefixes are among
 * them (a surface never gets the prefix its base already has).
 */
export const CODE_PREFIXES: readonly string[] = [
  'The {lang} code is as follows:',
  'This is the {lang} code:',
  'Here is the {lang} code:',
  'Run the following {lang}:',
  '{lang} code to execute:',
  'Execute this {lang}:',
  'The {lang} to run is:',
  '{lang} source:',
  'Code ({lang}):',
  'Please run this {lang} code:',
  'Below is the {lang} program:',
];

/** Head nouns for a code parameter whose name is only the language (`SQL` → `SQLCommand`, `Python` → `PyCode`). */
export const CODE_HEADS: Readonly<Partial<Record<KernelToolName, readonly string[]>>> = {
  SQLInterpreter: ['Command', 'Statement', 'Query', 'Code'],
  PythonInterpreter: ['Code', 'Script', 'Program', 'Snippet'],
};

/** Labels of structured-string slots, per kernel parameter (one label per slot). */
export const SLOT_LABELS: Readonly<Record<string, readonly string[]>> = {
  GraphName: ['Graph', 'Network', 'GraphName', 'Net'],
  Node: ['Node', 'Vertex', 'Entity', 'Target'],
  DBName: ['Database', 'DB', 'Dataset', 'Table', 'Store'],
  column_name: ['Columns', 'Fields', 'Attributes', 'Cols'],
};

/** Label pairs for the two nodes of an edge (kept as pairs so that they read as a pair). */
export const NODE_PAIR_LABELS: readonly (readonly [string, string])[] = [
  ['FirstNode', 'SecondNode'],
  ['Vertex1', 'Vertex2'],
  ['Source', 'Target'],
  ['From', 'To'],
  ['NodeA', 'NodeB'],
  ['Head', 'Tail'],
  ['Start', 'End'],
];

/** The first word of a structured parameter's key, per kernel tool (`Edge` + `Spec` → `EdgeSpec`). */
export const STRUCTURED_KEY_HEADS: Readonly<Partial<Record<KernelToolName, readonly string[]>>> = {
  NeighbourCheck: ['Node', 'Vertex', 'Target'],
  NodeCheck: ['Node', 'Vertex', 'Target', 'Entity'],
  EdgeCheck: ['Edge', 'Node', 'Check', 'Link', 'Pair'],
  LoadDB: ['Database', 'DB', 'Dataset', 'Table'],
  LoadGraph: ['Graph', 'Network', 'Data'],
  GetValue: ['Column', 'Field', 'Selection', 'Value'],
};

/** The second word of a structured parameter's key. */
export const STRUCTURED_KEY_TAILS: readonly string[] = [
  'Infos',
  'Spec',
  'Ref',
  'Args',
  'Descriptor',
  'Details',
];

/** Keys of a wrapped response: the state key and the message key are drawn from different lists. */
export const RESPONSE_STATE_KEYS: readonly string[] = [
  'State',
  'state',
  'Status',
  'status',
  'Outcome',
  'outcome',
];
export const RESPONSE_MESSAGE_KEYS: readonly string[] = [
  'Message',
  'message',
  'Observation',
  'observation',
  'Output',
  'output',
  'Data',
  'content',
];

/** [success, failure] values of a wrapped response's state. */
export const RESPONSE_STATES: readonly (readonly [string, string])[] = [
  ['Success', 'Failure'],
  ['success', 'failure'],
  ['ok', 'error'],
  ['OK', 'ERROR'],
  ['succeeded', 'failed'],
  ['done', 'failed'],
  ['passed', 'failed'],
];

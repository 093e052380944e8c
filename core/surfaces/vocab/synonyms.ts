/**
 * The words tool and parameter names are made of, and how names are written: the vocabulary the drift
 * generator (drift/) renames with.
 *
 * - `SYNSETS` groups interchangeable words (`Load`, `Init`, `Open`, `Import`, `Mount`, `Attach`, …). Every word
 *   belongs to at most one group (compared case-insensitively), so a word's synonyms are simply the other
 *   members of its group. Words are stored in their capitalised form; acronyms (`DB`, `SQL`) in capitals.
 *   The groups cover every word of the built-in surfaces' tool and parameter names (a test checks it) and nearly
 *   every word the generator itself writes (flag names, structured keys, labels), so that a generated surface can
 *   be drifted again.
 * - `splitWords` cuts a name into words at `_`, `-`, `.`, case changes and digit runs:
 *   `FetchValue_ByKey` → Fetch, Value, By, Key; `SQLInterpreter` → SQL, Interpreter; `Vertex1` → Vertex, 1.
 * - `NAME_STYLES` are the casing/joiner conventions of real APIs (and of ToolQA-D's drifted names):
 *   `PascalCase` (`InitializeDatabase`), `camelCase` (`searchTerm`), `snake_case` (`return_num`),
 *   `Pascal_Snake` (`Apply_Database_Filters`) and `Pascal_Mixed` (`DoFilter_OnDatabase`, each gap either
 *   joined directly or with `_`). A digit run always attaches to the word before it (`Vertex1`, `node1`).
 */
import type { Rng } from '../../util/random.ts';

export const SYNSETS: readonly (readonly string[])[] = [
  // Verbs
  ['Retrieve', 'Search', 'Lookup', 'Find', 'Locate', 'Seek'],
  ['Get', 'Fetch', 'Read', 'Extract', 'Obtain', 'Pull', 'Collect'],
  ['Load', 'Init', 'Initialize', 'Open', 'Import', 'Mount', 'Attach'],
  ['Filter', 'Narrow', 'Restrict', 'Select', 'Refine', 'Subset'],
  ['Apply', 'Enforce', 'Impose', 'Add'],
  ['Check', 'Inspect', 'Verify', 'Validate', 'Probe', 'Examine', 'Test'],
  ['Execute', 'Run', 'Process', 'Evaluate', 'Perform'],
  ['Call', 'Invoke', 'Trigger', 'Use', 'Dispatch'],
  ['Do', 'Go', 'Make'],
  ['Return', 'Give', 'Send', 'Emit', 'Show', 'Report'],
  ['Confirm', 'Acknowledge', 'Approve', 'Accept', 'Commit'],
  ['Include', 'Embed', 'Keep'],
  ['Enable', 'Activate', 'Allow'],
  // Nouns: the corpora
  ['Agenda', 'Calendar', 'Schedule', 'Events', 'Diary', 'Planner', 'Itinerary'],
  ['Scirex', 'Papers', 'Literature', 'Research', 'Science', 'Publications', 'Articles'],
  ['DB', 'Database', 'Table', 'Dataset', 'Store', 'Datastore', 'Repository'],
  ['Data', 'Records', 'Info', 'Facts', 'Items'],
  ['Graph', 'Network', 'Net', 'Topology'],
  // Nouns: tables
  ['Filters', 'Conditions', 'Constraints', 'Criteria', 'Predicates', 'Rules', 'Clauses'],
  ['Condition', 'Criterion', 'Constraint', 'Predicate', 'Rule', 'Clause'],
  ['Column', 'Field', 'Attribute', 'Col', 'Property'],
  ['Columns', 'Fields', 'Attributes', 'Cols', 'Properties'],
  ['Value', 'Entry', 'Cell', 'Datum', 'Content'],
  ['Key', 'Label', 'Header', 'Heading'],
  // Nouns: graphs
  ['Neighbour', 'Neighbor', 'Adjacent', 'Adjacency', 'Linked', 'Connected', 'Nearby'],
  ['Node', 'Vertex', 'Entity', 'Point', 'Element'],
  ['Nodes', 'Vertices', 'Entities', 'Points', 'Elements'],
  ['Edge', 'Link', 'Connection', 'Relation', 'Tie', 'Arc'],
  ['Edges', 'Links', 'Connections', 'Relations', 'Arcs'],
  ['First', 'Source', 'Start', 'Left', 'Head', 'Origin'],
  ['Second', 'Target', 'End', 'Right', 'Tail', 'Destination'],
  ['List', 'Array', 'Collection', 'Group', 'Set'],
  // Nouns: interpreters
  ['SQL', 'Relational', 'RDBMS'],
  ['Python', 'Py', 'Python3'],
  ['Interpreter', 'Runner', 'Executor', 'Engine', 'Evaluator', 'Console', 'Shell', 'Runtime', 'Sandbox'],
  ['Code', 'Script', 'Program', 'Snippet', 'Listing'],
  ['Command', 'Statement', 'Instruction', 'Directive'],
  // Nouns: arguments
  ['Query', 'Request', 'Question', 'Inquiry'],
  ['Keyword', 'Term', 'Phrase', 'Keywords', 'Topic', 'Terms'],
  ['Text', 'String', 'Words', 'Wording'],
  ['Name', 'Identifier', 'Id', 'Title', 'Handle', 'Ref'],
  ['Num', 'Number', 'Count', 'Amount', 'Limit', 'Size'],
  ['Passage', 'Paragraph', 'Document', 'Doc', 'Hit', 'Chunk'],
  ['Result', 'Outcome', 'Output', 'Response'],
  ['Infos', 'Details', 'Spec', 'Params', 'Args', 'Descriptor'],
  ['Local', 'Internal', 'Onsite', 'Private'],
  ['Mode', 'Setting', 'Option'],
  ['Now', 'Immediately', 'Directly'],
  ['Full', 'Complete', 'Whole', 'Entire'],
  ['Strict', 'Exact', 'Precise'],
  ['Verbose', 'Detailed', 'Wordy'],
  ['Pair', 'Couple', 'Duo'],
  ['Selection', 'Choice', 'Pick'],
  // Fillers
  ['On', 'Over', 'Against', 'Across', 'Upon'],
  ['The', 'Given', 'These', 'Each'],
  ['By', 'Per', 'Via', 'With', 'Using'],
  ['From', 'Of', 'In', 'Within'],
  ['To', 'Toward', 'Into', 'Onto'],
];

/** Words a tool-name rename may leave out (`Call_Retrieve_On_Agenda` → `Search_Calendar`). */
export const FILLER_WORDS: ReadonlySet<string> = new Set(
  [
    ...['On', 'Over', 'Against', 'Across', 'Upon', 'The', 'Given', 'These', 'Each'],
    ...['By', 'Per', 'Via', 'With', 'Using', 'From', 'Of', 'In', 'Within'],
    ...['Do', 'Go', 'Make', 'Call', 'Invoke', 'Trigger', 'Use', 'Dispatch'],
  ].map((w) => w.toLowerCase()),
);

/** Words appended when a name has no word with synonyms, so that a rename still changes it. */
export const QUALIFIERS: readonly string[] = ['New', 'Next', 'Alt', 'Ex', 'Plus'];

const GROUP_OF = new Map<string, readonly string[]>();
for (const group of SYNSETS) for (const w of group) GROUP_OF.set(w.toLowerCase(), group);

/** The other members of the word's group (case-insensitive lookup); empty when the word is unknown. */
export function synonymsOf(word: string): readonly string[] {
  const group = GROUP_OF.get(word.toLowerCase());
  return group ? group.filter((w) => w.toLowerCase() !== word.toLowerCase()) : [];
}

/** The vocabulary's spelling of a word (`db` → `DB`), or the word itself when it is unknown. */
export function canonicalWord(word: string): string {
  const group = GROUP_OF.get(word.toLowerCase());
  return group?.find((w) => w.toLowerCase() === word.toLowerCase()) ?? word;
}

/** Cuts a name into words (see the module header). Separators are dropped. */
export function splitWords(name: string): string[] {
  return name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? [];
}

export const NAME_STYLES = ['PascalCase', 'camelCase', 'snake_case', 'Pascal_Snake', 'Pascal_Mixed'] as const;
export type NameStyle = (typeof NAME_STYLES)[number];

function isDigits(w: string): boolean {
  return /^[0-9]+$/.test(w);
}

function isAcronym(w: string): boolean {
  return /^[A-Z][A-Z0-9]+$/.test(w);
}

function capitalise(w: string): string {
  return isAcronym(w) ? w : `${w.charAt(0).toUpperCase()}${w.slice(1)}`;
}

/** The words cased for a style (`camelCase`: the first word lower-case, acronyms included). */
export function caseWords(words: readonly string[], style: NameStyle): string[] {
  return words.map((w, i) => {
    if (style === 'snake_case' || (style === 'camelCase' && i === 0)) return w.toLowerCase();
    return capitalise(w);
  });
}

/**
 * Joins words with one joiner per gap; a gap before a digit run takes no joiner (`Vertex1`).
 * `joiners[i]` is the text between word i and word i + 1.
 */
export function joinWords(words: readonly string[], joiners: readonly string[]): string {
  let out = '';
  words.forEach((w, i) => {
    if (i > 0) out += isDigits(w) ? '' : (joiners[i - 1] ?? '');
    out += w;
  });
  return out;
}

/** The joiners of a style for `n` words; `Pascal_Mixed` draws each gap from `rng`. */
export function styleJoiners(style: NameStyle, n: number, rng: Rng): string[] {
  const fixed: Record<NameStyle, string | null> = {
    PascalCase: '',
    camelCase: '',
    snake_case: '_',
    Pascal_Snake: '_',
    Pascal_Mixed: null,
  };
  const joiner = fixed[style];
  return Array.from({ length: Math.max(0, n - 1) }, () => joiner ?? (rng.chance(0.5) ? '_' : ''));
}

/** Words written in a style: `['Fetch', 'Agenda', 'Data']` → `Fetch_Agenda_Data` (Pascal_Snake). */
export function styleName(words: readonly string[], style: NameStyle, rng: Rng): string {
  return joinWords(caseWords(words, style), styleJoiners(style, words.length, rng));
}

/** How many gaps between words a name has where a separator may go (not before a digit run). */
export function wordGaps(words: readonly string[]): number {
  return words.slice(1).filter((w) => !isDigits(w)).length;
}

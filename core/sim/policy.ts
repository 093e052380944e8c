/**
 * The simulated policy's next step, from the prompt alone:
 *
 * 1. Read the prompt: question, documented tools, UpdateTool lines (memory), steps so far (prompt-reader.ts,
 *    knowledge.ts).
 * 2. Recognise the question's task template and replay its solver over the steps taken (replay.ts): the next P_c
 *    call, or the answer.
 * 3. Guideline 4: right after the first successful call of a tool that is not the documented one, record it with
 *    UpdateTool (with probability pUpdate) — when its prompt documents UpdateTool.
 * 4. Decide how to write the call, from the last meaningful attempt at the same kernel tool:
 *    - it met a deprecation message naming a replacement: switch with probability pUpdate (shaping the
 *      parameters like the param example with probability pReflect, else keeping the old keys under the new name),
 *      otherwise call the deprecated tool again. When an UpdateTool line of the tool list already describes that
 *      replacement, the switch follows the line's example with no pReflect roll: the policy reads the new tool's
 *      parameters in its own documentation instead of having to infer them from an error message;
 *    - it met a parameter error, or an unknown-tool answer for a name the policy believed in: repair the call
 *      from the example/documentation with probability pReflect, otherwise repeat it verbatim;
 *    - it worked: keep that name and shape;
 *    - no attempt yet: the tool's UpdateTool line with probability pMemory, else the documented tool — or, when
 *      the prompt documents no tool for it, an invented name (GUESSED_TOOL_NAMES), never the P_c name.
 *    A JSON error or unreadable output is simply written again.
 * 5. With probability `noise`, turn the step into one of the realistic failures (noise.ts). `deprecated-again`
 *    (slipping back to the documented, deprecated name although the replacement worked) is not among them for a
 *    kernel tool whose replacement an UpdateTool line describes: the right name is in the policy's tool list.
 *
 * So UpdateTool lines (the search's subtree-scoped tool-update memory) help the way a tool description helps a
 * real LLM — fewer slips to the deprecated name, the new parameters right first time — even though the policy
 * can also learn a replacement from the steps of its own path.
 *
 * It never sees which surface the server runs or the gold answer: everything comes from the prompt text.
 */
import { reactStepText, writeActionInput, writeJsonEntries } from '../prompts/react-format.ts';
import { KERNEL_TOOL_PARAMS, type KernelCall, type KernelToolName } from '../world/kernel/kernel.ts';
import type { Solver } from '../world/tasks/types.ts';
import { apiStep, isApiPrompt } from './api-agent.ts';
import type { Decider } from './decider.ts';
import type { History, HistoryStep, Knowledge, MemoryEntry } from './knowledge.ts';
import { readHistory } from './knowledge.ts';
import { guessAnswer, hallucinatedNames, malformedText, wrongAnswer, wrongValueCall } from './noise.ts';
import {
  callThought,
  giveUpThought,
  noteThought,
  repeatThought,
  TOOL_PURPOSE,
  unknownQuestionThought,
  updateToolThought,
  type WritingNote,
} from './phrasing.ts';
import type { ReadPrompt } from './prompt-reader.ts';
import { matchQuestion } from './questions.ts';
import { replaySolver } from './replay.ts';
import { type CallShape, inferShape, renamedShape, renderCall, signatureShape } from './shapes.ts';
import type { NoiseKind, SimSkills } from './skills.ts';

/** What the step does, for diagnostics and tests. */
export type StepKind =
  | 'call'
  | 'repeat'
  | 'update-tool'
  | 'finish'
  | 'give-up'
  | 'unknown-question'
  | `noise:${NoiseKind}`;

export interface PolicyStep {
  text: string;
  kind: StepKind;
  note?: WritingNote;
}

type Writing =
  | { kind: 'write'; shape: CallShape; note: WritingNote; old?: string }
  | { kind: 'repeat'; step: HistoryStep };

/**
 * The name the policy writes for a kernel tool its prompt does not document (nor remember, nor announce, nor
 * demonstrate): an invented, plausible name, never the P_c name — the simulator knows the task templates
 * (what to do), not the tools' names, so a tool that is not in its prompt is one it does not know. The guess
 * meets the server's invalid-action answer, as a real model's invented name would (issue 14, the toolPool aid
 * documents only retrieved tools). Finish and UpdateTool keep their names: the format and guidelines name them.
 */
export const GUESSED_TOOL_NAMES: Readonly<Record<KernelToolName, string>> = {
  RetrieveAgenda: 'search_agenda',
  RetrieveScirex: 'search_papers',
  LoadDB: 'load_database',
  FilterDB: 'filter_rows',
  GetValue: 'get_column_values',
  LoadGraph: 'load_graph',
  NeighbourCheck: 'get_neighbours',
  NodeCheck: 'get_node_info',
  EdgeCheck: 'get_edge_info',
  SQLInterpreter: 'run_sql',
  PythonInterpreter: 'run_python',
  Finish: 'Finish',
  UpdateTool: 'UpdateTool',
};

function documentedShape(k: Knowledge, kernel: KernelToolName): CallShape {
  return (
    k.documented.get(kernel) ?? signatureShape(GUESSED_TOOL_NAMES[kernel], kernel, KERNEL_TOOL_PARAMS[kernel])
  );
}

function shapeOfStep(step: HistoryStep): CallShape | null {
  if (step.action === null || step.args === null || step.kernel === null) return null;
  return inferShape(step.action, step.kernel, step.args);
}

function sameArgs(shape: CallShape, call: KernelCall, step: HistoryStep): boolean {
  return (
    step.args !== null &&
    step.action === shape.name &&
    writeJsonEntries(renderCall(shape, call)) === writeJsonEntries(step.args)
  );
}

/**
 * The UpdateTool line of the tool list that describes a replacement of `kernel` (a name other than the
 * documented one), if any: the policy's documentation of the new tool.
 */
function rememberedReplacement(k: Knowledge, kernel: KernelToolName): MemoryEntry | null {
  const memory = k.memory.get(kernel);
  return memory && memory.name !== documentedShape(k, kernel).name ? memory : null;
}

/** How to write the next call of a kernel tool (see the module header, step 4). */
function chooseWriting(
  call: KernelCall,
  history: History,
  p: { update: number; reflect: number; memory: number; demo: number },
  d: Decider,
): Writing {
  const k = history.knowledge;
  const kernel = call.tool;
  const documented = documentedShape(k, kernel);
  const attempts = history.steps.filter((s) => s.kernel === kernel);
  const workingStep = attempts.findLast((s) => !s.rejected && s.args !== null);
  const working = workingStep ? shapeOfStep(workingStep) : null;
  const last = attempts.findLast(
    (s) => !(s.observation.kind === 'argument-error' || s.observation.kind === 'filtered'),
  );

  if (last?.rejected && last.action !== null) {
    const obs = last.observation;
    if (obs.kind === 'deprecated') {
      const replacement = obs.deprecation.replacement;
      if (replacement === null || replacement === last.action) return { kind: 'repeat', step: last };
      const worked = attempts.findLast((s) => !s.rejected && s.action === replacement);
      const workedShape = worked ? shapeOfStep(worked) : null;
      if (workedShape) return { kind: 'write', shape: workedShape, note: 'working' };
      if (!d.chance(`update:${kernel}`, p.update)) return { kind: 'repeat', step: last };
      const remembered = rememberedReplacement(k, kernel);
      if (remembered && remembered.name === replacement) {
        // The replacement is described in the tool list: its first call follows that line's example.
        return { kind: 'write', shape: remembered.shape, note: 'memory', old: last.action };
      }
      const announced = k.announced.get(replacement)?.shape;
      const own = shapeOfStep(last) ?? documented;
      if (announced && d.chance(`example:${kernel}`, p.reflect)) {
        return { kind: 'write', shape: announced, note: 'adopt', old: last.action };
      }
      return { kind: 'write', shape: renamedShape(own, replacement), note: 'adopt-name', old: last.action };
    }
    if (obs.kind === 'param-error' || obs.kind === 'invalid-action') {
      if (!d.chance(`reflect:${kernel}`, p.reflect)) return { kind: 'repeat', step: last };
      const name = last.action;
      const candidates: CallShape[] = [];
      const announced = k.announced.get(name)?.shape;
      if (announced) candidates.push(announced);
      const memory = k.memory.get(kernel);
      if (memory && memory.name === name) candidates.push(memory.shape);
      if (documented.name === name) candidates.push(documented);
      if (working && working.name === name) candidates.push(working);
      const repaired = candidates.find((s) => !sameArgs(s, call, last));
      if (repaired) return { kind: 'write', shape: repaired, note: 'repair' };
      if (obs.kind === 'invalid-action' && name !== documented.name) {
        // A remembered or announced name this server does not know: back to the documentation.
        return { kind: 'write', shape: documented, note: 'back-to-documented', old: name };
      }
      return { kind: 'repeat', step: last };
    }
  }
  if (working) return { kind: 'write', shape: working, note: 'working' };
  const memory = k.memory.get(kernel);
  if (memory && memory.name !== documented.name && d.chance(`memory:${kernel}`, p.memory)) {
    return { kind: 'write', shape: memory.shape, note: 'memory' };
  }
  const demo = k.demonstrated.get(kernel);
  if (demo && demo.name !== documented.name && d.chance(`demo:${kernel}`, p.demo)) {
    return { kind: 'write', shape: demo, note: 'demonstration' };
  }
  // The previous step could not be read (unparsable text or JSON): the same call, written properly this time.
  const previous = history.steps.at(-1)?.observation.kind;
  const retry = previous === 'argument-error' || previous === 'filtered';
  return { kind: 'write', shape: documented, note: retry ? 'retry' : 'documented' };
}

function withNote(note: string | null, thought: string): string {
  return note ? `${note} ${thought}` : thought;
}

function finishText(thought: string, answer: unknown): string {
  return reactStepText(thought, 'Finish', writeActionInput({ answer }));
}

/** The first successful call of a tool under a name other than the documented one, if it was the last step. */
function newToolToRecord(history: History): HistoryStep | null {
  const last = history.steps.at(-1);
  if (!last || last.rejected || last.kernel === null || last.action === null || last.args === null)
    return null;
  if (last.kernel === 'Finish' || last.kernel === 'UpdateTool') return null;
  const k = history.knowledge;
  if (k.documented.get(last.kernel)?.name === last.action) return null;
  if ([...k.memory.values()].some((m) => m.name === last.action)) return null;
  const earlier = history.steps.some((s) => s.index < last.index && !s.rejected && s.action === last.action);
  return earlier ? null : last;
}

function updateToolStep(step: HistoryStep, history: History, d: Decider): PolicyStep {
  const k = history.knowledge;
  const kernel = step.kernel as KernelToolName;
  const name = step.action as string;
  const announced = k.announced.get(name);
  const params =
    announced && announced.deprecation.params.length > 0
      ? announced.deprecation.params
      : (step.args ?? []).map(([key]) => key);
  const example = announced?.deprecation.example ?? step.args ?? [];
  const old = documentedShape(k, kernel).name;
  const desc = `${name}[${params.join(', ')}], which is an updated version of ${old} and ${TOOL_PURPOSE[kernel]}. For example: ${writeJsonEntries(example)}.`;
  return {
    text: reactStepText(updateToolThought(name, d), 'UpdateTool', writeActionInput({ newtool_desc: desc })),
    kind: 'update-tool',
  };
}

function lastResult(history: History): string | null {
  const s = history.steps.findLast((x) => !x.rejected && x.observation.kind === 'result');
  return s ? s.content : null;
}

function applicableNoise(
  history: History,
  call: KernelCall,
  shape: CallShape,
  executed: number,
): NoiseKind[] {
  const kinds: NoiseKind[] = ['malformed', 'hallucinated-tool'];
  if (wrongValueCall(call)) kinds.push('wrong-value');
  const documented = history.knowledge.documented.get(call.tool);
  const deprecatedBefore =
    documented !== undefined &&
    documented.name !== shape.name &&
    history.steps.some((s) => s.action === documented.name && s.observation.kind === 'deprecated');
  // With the replacement described in its tool list, the policy does not slip back to the documented name.
  const documentedReplacement = rememberedReplacement(history.knowledge, call.tool) !== null;
  if (deprecatedBefore && !documentedReplacement) kinds.push('deprecated-again');
  if (executed > 0) kinds.push('premature-finish');
  return kinds;
}

function noisyCall(
  kind: NoiseKind,
  call: KernelCall,
  shape: CallShape,
  thought: string,
  history: History,
  d: Decider,
): string {
  const k = history.knowledge;
  switch (kind) {
    case 'malformed': {
      const args = renderCall(shape, call);
      return malformedText(thought, shape.name, args, writeJsonEntries(args), d);
    }
    case 'wrong-value': {
      const wrong = wrongValueCall(call) ?? call;
      return reactStepText(thought, shape.name, writeJsonEntries(renderCall(shape, wrong)));
    }
    case 'hallucinated-tool': {
      const names = hallucinatedNames(shape.name, new Set(k.nameToKernel.keys()));
      const name =
        names.length > 0
          ? d.weighted(
              'noise:name',
              names,
              names.map(() => 1),
            )
          : `${shape.name}Tool`;
      return reactStepText(thought, name, writeJsonEntries(renderCall(shape, call)));
    }
    case 'deprecated-again': {
      const documented = documentedShape(k, call.tool);
      return reactStepText(thought, documented.name, writeJsonEntries(renderCall(documented, call)));
    }
    case 'premature-finish':
    case 'wrong-finish':
      // wrong-finish is applied to the answer before the Finish step is written (see nextStep).
      return finishText(giveUpThought(d), guessAnswer(lastResult(history)));
  }
}

function pickNoise(kinds: readonly NoiseKind[], skills: SimSkills, d: Decider): NoiseKind | null {
  const weights = kinds.map((k) => skills.noiseKinds[k]);
  if (weights.every((w) => w <= 0)) return null;
  return d.weighted('noise:kind', kinds, weights);
}

export function nextStep(prompt: ReadPrompt, skills: SimSkills, d: Decider): PolicyStep {
  const match = prompt.question ? matchQuestion(prompt.question) : null;
  // A question of no ToolQA-D template on a prompt documenting HTTP operations: the generic API mode.
  if (!match && isApiPrompt(prompt)) return apiStep(prompt, skills, d);
  return nextStepWith(prompt, skills, d, match ? () => match.template.solve(match.slots) : null);
}

/**
 * The next step for a plan: `solve` starts the solver of the question (a task template's reference solver, or
 * the plan of a query the policy imagined itself in STE); null → the question is not understood.
 */
export function nextStepWith(
  prompt: ReadPrompt,
  skills: SimSkills,
  d: Decider,
  solve: (() => Solver) | null,
): PolicyStep {
  const history = readHistory(prompt);
  const gain = prompt.reflection ? skills.reflectionPromptGain : 0;
  const p = {
    update: skills.pUpdate + (1 - skills.pUpdate) * gain,
    reflect: skills.pReflect + (1 - skills.pReflect) * gain,
    memory: skills.pMemory,
    demo: skills.pDemo,
  };

  if (!solve) {
    return { text: finishText(unknownQuestionThought(d), 'unknown'), kind: 'unknown-question' };
  }

  // A prompt without UpdateTool (Table 5's "w/o tool update") gives the policy nothing to record the tool with.
  const record = history.knowledge.documented.has('UpdateTool') ? newToolToRecord(history) : null;
  if (record && d.chance(`update-tool:${record.kernel}`, p.update)) {
    return updateToolStep(record, history, d);
  }

  const replay = replaySolver(solve, history);
  if (replay.kind === 'stuck') {
    return { text: finishText(giveUpThought(d), guessAnswer(lastResult(history))), kind: 'give-up' };
  }
  const noisy = d.chance('noise', skills.noise);

  if (replay.kind === 'done') {
    const noise = noisy ? pickNoise(['wrong-finish', 'malformed'], skills, d) : null;
    const answer = noise === 'wrong-finish' ? wrongAnswer(replay.answer) : replay.answer;
    const call: KernelCall = { tool: 'Finish', args: { answer } };
    const thought = callThought(call, d);
    if (noise === 'malformed') {
      const shape = documentedShape(history.knowledge, 'Finish');
      return { text: noisyCall(noise, call, shape, thought, history, d), kind: 'noise:malformed' };
    }
    return { text: finishText(thought, answer), kind: noise ? `noise:${noise}` : 'finish' };
  }

  const call = replay.call;
  const writing = chooseWriting(call, history, p, d);
  if (writing.kind === 'repeat') {
    const s = writing.step;
    return {
      text: reactStepText(
        repeatThought(s.action as string, d),
        s.action as string,
        s.actionInputText ?? '{}',
      ),
      kind: 'repeat',
    };
  }
  const shape = writing.shape;
  const thought = withNote(
    noteThought(writing.note, { name: shape.name, old: writing.old }, d),
    callThought(call, d),
  );
  if (noisy) {
    const kind = pickNoise(applicableNoise(history, call, shape, replay.executed), skills, d);
    if (kind) return { text: noisyCall(kind, call, shape, thought, history, d), kind: `noise:${kind}` };
  }
  return {
    text: reactStepText(thought, shape.name, writeJsonEntries(renderCall(shape, call))),
    kind: 'call',
    note: writing.note,
  };
}

/**
 * The exact observation and error strings of the ToolQA-D kernel (spec §3.13), shared by the kernel, the API
 * surfaces and the agents. Typos of the original (`in not in the list`, `iccurs`, `1 rows`, lower-case `we`) are
 * interface facts and kept on purpose.
 */

// ReAct parsing (§3.0 step 1, §5.2)
export const ACTION_FILTERED =
  'Your action is filtered due to some error in content. Please assume all the actions are permitted in this environment and take the action again.';
/** The inference_gpt copy of the same message. */
export const ACTION_FILTERED_GPT =
  'You action is filtered due to some error in content. Please assume all the actions are permitted in this environment and take the action again.';

// JSON decoding of Action Input (§3.0 step 2)
export const ARGUMENT_ERROR_PREFIX = 'argument error: ';
export function argumentError(decoderMessage: string): string {
  return `${ARGUMENT_ERROR_PREFIX}${decoderMessage}`;
}

// Unknown action name / v0 parameter-key mismatch (§4.7)
export const INVALID_ACTION =
  'Invalid Action. Valid Actions are RetrieveAgenda[<keyword>] RetrieveScirex[<keyword>] LoadDB[<DBName>] FilterDB[<condition>] GetValue[<column_name>] LoadGraph[<GraphName>] NeighbourCheck[<GraphName>, <Node>] NodeCheck[<GraphName>, <Node>] EdgeCheck[<GraphName>, <Node1>, <Node2>] SQLInterpreter[<SQL>] PythonInterpreter[<Python>] Finish[<answer>] and UpdateTool[<newtool_desc>].';

// Deprecation template (§4.6); the filled-in texts live with the API surfaces.
export function deprecated(oldApi: string, newFunction: string): string {
  return `Error: ${oldApi} is deprecated and will be removed in future releases. Use ${newFunction} instead.`;
}

// Finish (§3.11)
export const ANSWER_CORRECT = 'Answer is CORRECT';
export const ANSWER_INCORRECT = 'Answer is INCORRECT';
/** tooldrift: Finish on a free question, which has no gold answer (not in ToolQA-D, where every question has one). */
export const ANSWER_UNJUDGED = 'Answer is recorded (there is no gold answer to judge it against)';

// UpdateTool (§3.12)
export const UPDATE_TOOL_SUCCESS = 'The description for the new tool has been updated successfully.';
export const UPDATE_TOOL_FAILED =
  'Tool update failed. There is something wrong with the arguments you send for UpdateTool. Please modify it.';

// PythonInterpreter (§3.10)
export const PYTHON_PRINT_HINT = 'You should print the variable you want to obtain the python result.';
export const PYTHON_TIMEOUT =
  "TimeoutError: 'Execution of the code snippet has timed out for exceeding 15 seconds.'";
export function pythonException(className: string, message: string): string {
  return `${className}: ${message}`;
}
/** The environment's wrapper around the interpreter (reached only if the interpreter itself breaks). */
export function pythonWrapperError(e: string): string {
  return `An error occurred: ${e}`;
}

// LoadDB (§3.2)
export function dbLoaded(dbName: string, columns: readonly string[]): string {
  return `We have successfully loaded the ${dbName} database, including the following columns: ${columns.join(', ')}.`;
}
export const DB_NOT_IN_LIST =
  'The database you want to query in not in the list. Please change another database for query.';

// FilterDB (§3.3)
export const FILTER_LOAD_FIRST =
  'Please first load the relevant database using `LoadDB` before proceeding with `FilterDB`.';
export function filterIncorrect(subCondition: string): string {
  return `The filtering query ${subCondition} is incorrect. Please modify the condition.`;
}
export function filterFailed(subCondition: string): string {
  return `we have failed when conducting the ${subCondition} command. Please make changes.`;
}
export function filterSuccess(rows: number): string {
  return `We have successfully filtered the data (${rows} rows).`;
}
export const FILTER_ARGUMENTS_WRONG =
  'There is something wrong with the arguments you send for filtering. Please modify it.';

// GetValue (§3.4)
export const GETVALUE_LOAD_FIRST =
  'Please first load the relevant database using `LoadDB` before proceeding with `GetValue`.';
export const VALUE_NOT_EXIST = 'The value you are querying does not exist. Please modify it.';

// RetrieveAgenda / RetrieveScirex (§3.1)
export const RETRIEVE_NO_MATCH =
  'There is no information that can be matched in the database. Please try another query.';

// LoadGraph (§3.5)
export const GRAPH_LOADED = 'DBLP data is loaded, including two graphs: AuthorNet and PaperNet.';
export function graphNotFound(graphName: string): string {
  return `We don't have the graph data named ${graphName}`;
}
export const GRAPH_NOT_IN_LIST =
  'The graph you want to query in not in the list. Please change another graph for query.';

// NeighbourCheck (§3.6)
export const NEIGHBOUR_ARGUMENTS_WRONG =
  'There is something wrong with the arguments you send for neighbour checking. Please modify it.';

// NodeCheck (§3.7)
export const NODE_NOT_EXIST = 'The node does not exist in the graph. Please modify it.';
export const NODE_ARGUMENTS_WRONG =
  'There is something wrong with the arguments you send for node checking. Please modify it.';

// EdgeCheck (§3.8)
export const NO_EDGE = 'There is no edge between the two nodes. Please modify it.';
export const EDGE_ARGUMENTS_WRONG =
  'There is something wrong with the arguments you send for edge checking. Please modify it.';

// SQLInterpreter (§3.9)
export const SQL_ERROR = 'There is something wrong with the SQL command you send. Please modify it.';

// Tool server (§3.0)
export function toolServerError(kernelName: string): string {
  return `some error iccurs when using ${kernelName}.`;
}

// Parameter errors of the P_s surfaces (§4.8)
export const PARAM_ERROR_GETTING_VALUE =
  'There is something wrong with the arguments you send for getting value. Please modify it.';
export const PARAM_ERROR_SQL_ARGUMENTS =
  'There is something wrong with the arguments you send for SQL. Please modify it.';
export const PARAM_ERROR_PYTHON_ARGUMENTS =
  'There is something wrong with the arguments you send for python. Please modify it.';
export const PARAM_ERROR_PYTHON_COMMAND =
  'There is something wrong with the Python command you send. Please modify it.';
export const PARAM_ERROR_COMMAND = 'There is something wrong with your command you send. Please modify it.';
export const PARAM_ERROR_FLAG = 'There is something wrong with the params you send. Please modify it.';

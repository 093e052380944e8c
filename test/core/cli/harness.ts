/**
 * Test harness for the CLI: a fake tooldrift API on a local node:http server (routes answer with canned
 * responses and record every request) and an in-process runner of `main` capturing stdout, stderr and the exit
 * code, with instant polling.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CliIO } from '../../../cli/context.ts';
import { main } from '../../../cli/main.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void;

export interface FakeApi {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** `routes` maps `METHOD /path` to a handler; anything else is a 404 problem. */
export async function fakeApi(routes: Record<string, Handler>): Promise<FakeApi> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => {
      raw += d;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      };
      requests.push(recorded);
      const handler = routes[`${recorded.method} ${recorded.path}`];
      if (handler) handler(recorded, res);
      else
        sendJson(res, 404, { type: '/problems/not-found', title: 'Not found', status: 404, detail: 'nope' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const type = status >= 400 ? 'application/problem+json' : 'application/json';
  res.writeHead(status, { 'content-type': type });
  res.end(JSON.stringify(body));
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(
  argv: string[],
  options: { env?: Record<string, string | undefined>; tty?: boolean; io?: Partial<CliIO> } = {},
): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  let clock = 0;
  const code = await main(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    stderrIsTTY: options.tty ?? false,
    env: options.env ?? {},
    pollMs: 1_000,
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
    ...options.io,
  });
  return { code, stdout, stderr };
}

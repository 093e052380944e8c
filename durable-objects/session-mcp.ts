/**
 * The MCP endpoint of one session (Streamable HTTP, stateful), held in its Durable Object's memory: one MCP
 * server and transport per connected client, keyed by the `Mcp-Session-Id` the transport hands out at
 * `initialize`. The official SDK's low-level `Server` is used rather than `McpServer` because the tools are
 * described by the surface's own JSON Schemas (`core/surfaces/docs.ts`), not by zod shapes, and because they
 * change at run time: when the surface in force changes, `refresh` sends `notifications/tools/list_changed` on
 * every client's GET stream, and the next `tools/list` answers with the new surface.
 *
 * What is not kept: the connections live in memory only, so after the object is evicted (no request for a
 * while, no open stream) a client's session id is answered with 404 "Session not found" and the client must
 * initialize again, as the Streamable HTTP transport specifies. The episode itself is in storage and unaffected.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  isInitializeRequest,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import type { McpToolDescriptor } from '../core/surfaces/docs.ts';

export const MCP_SERVER_INFO = { name: 'tooldrift', version: '0.1.0' } as const;

/** The most MCP clients one session keeps; initializing one more closes the oldest. */
export const MAX_MCP_CONNECTIONS = 16;

/** What the hub asks of the session that hosts it. */
export interface McpSessionHost {
  /** The tools of the surface in force now. */
  listTools(): Promise<McpToolDescriptor[]>;
  /** One tool call: a result, or a thrown `McpProtocolError`. */
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

/**
 * A JSON-RPC error with this exact `message` (the SDK's `McpError` prefixes its message with `MCP error <code>:`,
 * which would then be sent on the wire; the SDK sends any thrown error's `code`, `message` and `data` as they are).
 */
export class McpProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'McpProtocolError';
  }
}

/** A JSON-RPC error response outside any MCP session, shaped as the SDK's transport writes its own. */
export function jsonRpcErrorResponse(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

const JSON_MEDIA_TYPE = /^\s*application\/json\s*(;|$)/i;

interface Connection {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
}

export class McpHub {
  /** Initialized connections, oldest first (Map keeps insertion order). */
  private readonly connections = new Map<string, Connection>();
  /** The tool list the clients were last told about (JSON), null before the first look. */
  private announced: string | null = null;

  constructor(private readonly host: McpSessionHost) {}

  /**
   * Answers one HTTP request of the Streamable HTTP transport (POST, GET or DELETE). A request naming a session
   * goes to that session's transport; without a session id only an `initialize` POST is accepted, and it opens
   * a new connection whose server greets the client with `instructions`.
   */
  async handle(request: Request, instructions: string): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const connection = this.connections.get(sessionId);
      if (!connection) return jsonRpcErrorResponse(404, -32001, 'Session not found');
      return connection.transport.handleRequest(request);
    }
    if (request.method !== 'POST') {
      return jsonRpcErrorResponse(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    }
    // The transport's own checks, in its order, before the body is read to see whether it is an initialize.
    const accept = request.headers.get('accept') ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return jsonRpcErrorResponse(
        406,
        -32000,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      );
    }
    if (!JSON_MEDIA_TYPE.test(request.headers.get('content-type') ?? '')) {
      return jsonRpcErrorResponse(
        415,
        -32000,
        'Unsupported Media Type: Content-Type must be application/json',
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(await request.text());
    } catch {
      return jsonRpcErrorResponse(400, -32700, 'Parse error: Invalid JSON');
    }
    if (!isInitializeRequest(body)) {
      return jsonRpcErrorResponse(
        400,
        -32000,
        'Bad Request: Mcp-Session-Id header is required (without it only a valid initialize request is accepted)',
      );
    }
    const transport = await this.open(instructions);
    return transport.handleRequest(request, { parsedBody: body });
  }

  /**
   * Compares the tools in force with those the clients were last told about; when they differ, sends
   * `notifications/tools/list_changed` to every connected client (on its GET stream; a client without one
   * misses it, as the transport specifies). Returns whether the list changed.
   */
  async refresh(): Promise<boolean> {
    const current = JSON.stringify(await this.host.listTools());
    const previous = this.announced;
    this.announced = current;
    if (previous === null || previous === current) return false;
    await Promise.all(
      [...this.connections.values()].map((c) =>
        // A client that went away must not keep the others from being told.
        c.server.sendToolListChanged().catch(() => undefined),
      ),
    );
    return true;
  }

  /** Closes every connection (the session ended or expired): open streams end, later requests get 404. */
  async closeAll(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.transport.close().catch(() => undefined)));
  }

  private async open(instructions: string): Promise<WebStandardStreamableHTTPServerTransport> {
    const server = new Server(MCP_SERVER_INFO, {
      capabilities: { tools: { listChanged: true } },
      instructions,
      // The SDK's default validator is ajv, which compiles schemas with `new Function`: workerd forbids it.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await this.host.listTools() }));
    server.setRequestHandler(CallToolRequestSchema, (request) =>
      this.host.callTool(request.params.name, request.params.arguments ?? {}),
    );
    const connection: Connection = {
      server,
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => {
          this.connections.set(id, connection);
          if (this.connections.size > MAX_MCP_CONNECTIONS) {
            const [oldest] = this.connections.keys();
            const evicted = oldest === undefined ? undefined : this.connections.get(oldest);
            if (oldest !== undefined) this.connections.delete(oldest);
            void evicted?.transport.close().catch(() => undefined);
          }
        },
      }),
    };
    // DELETE from the client, or closeAll: forget the connection.
    server.onclose = () => {
      const id = connection.transport.sessionId;
      if (id !== undefined && this.connections.get(id) === connection) this.connections.delete(id);
    };
    await server.connect(connection.transport);
    return connection.transport;
  }
}

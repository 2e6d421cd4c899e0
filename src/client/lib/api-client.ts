import { ERROR_CODES, type ErrorCode } from '#shared/contracts/error-codes.ts';
import type { z } from '#shared/validation.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** An `Idempotency-Key`, so that a retried request is answered as the first one was. */
  idempotencyKey?: string;
}

interface ApiErrorInit {
  status: number;
  text: string;
  code?: ErrorCode | undefined;
  fields?: Readonly<Record<string, string>> | undefined;
  retryAfter?: number | undefined;
}

/**
 * A non-2xx answer from the API. The message is the status, a colon and the body text, as
 * docs/product.md#calls requires ("401: Invalid username or password"); the structured parts of the
 * error body are kept beside it so callers branch on `code` and show `fields` under their inputs.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly fields: Readonly<Record<string, string>> | undefined;
  /** Seconds to wait before trying again, from the body or the Retry-After header. */
  readonly retryAfter: number | undefined;

  constructor({ status, text, code, fields, retryAfter }: ApiErrorInit) {
    super(`${status}: ${text}`);
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.retryAfter = retryAfter;
  }
}

/**
 * The server's own words without the "status: " prefix that ApiError's message carries
 * (docs/product.md#calls): for a panel or form that shows a player the sentence, not the HTTP
 * status.
 */
export function serverText(error: ApiError): string {
  const prefix = `${error.status}: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}

/**
 * The contract a success answer must meet: the schema itself, or a function that loads it. The
 * modules that the first pages load pass a loader, so that zod and the contracts (a quarter of the
 * entry chunk once, and most of its evaluation on a slow phone) are not among what those pages
 * wait for; the answer and its contract then load side by side.
 */
export type ResponseSchema<T> = z.ZodType<T> | (() => Promise<z.ZodType<T>>);

/**
 * A contract loader that builds its contract once (a list's `.array()`, say) rather than on every
 * request; a load that failed is tried again by the next request.
 */
export function loadedOnce<T>(load: () => Promise<z.ZodType<T>>): () => Promise<z.ZodType<T>> {
  let contract: Promise<z.ZodType<T>> | undefined;
  return () => {
    contract ??= load().catch((error: unknown) => {
      contract = undefined;
      throw error;
    });
    return contract;
  };
}

function isErrorCode(value: string | undefined): value is ErrorCode {
  return (ERROR_CODES as readonly (string | undefined)[]).includes(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function retryAfterHeaderSeconds(response: Response): number | undefined {
  const header = response.headers.get('Retry-After');
  if (header === null || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header);
}

async function toApiError(response: Response): Promise<ApiError> {
  const [raw, { errorBodySchema }] = await Promise.all([
    response.text(),
    import('./error-body.ts'),
  ]);
  const parsed = errorBodySchema.safeParse(parseJson(raw));
  const body = parsed.success ? parsed.data : undefined;
  // HTTP/2 has no reason phrase, so statusText can be empty too; the last fallback keeps the
  // message readable instead of ending in a bare colon.
  const text = body?.message || raw.trim() || response.statusText || 'Request failed';
  return new ApiError({
    status: response.status,
    text,
    code: isErrorCode(body?.code) ? body.code : undefined,
    fields: body?.fields,
    retryAfter: body?.retryAfter ?? retryAfterHeaderSeconds(response),
  });
}

/**
 * The one place the client talks HTTP to its own API: cookies are sent, JSON is asked for, nothing
 * is cached by the browser (docs/product.md#calls), and any non-2xx answer throws an {@link
 * ApiError}.
 */
export async function apiFetch(
  method: HttpMethod,
  path: string,
  { body, signal, idempotencyKey }: RequestOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'include',
    cache: 'no-store',
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw await toApiError(response);
  return response;
}

/**
 * Sends a request and checks the JSON answer against its contract. An answer that breaks the
 * contract is a bug on one side, so it fails loudly rather than flowing on with the wrong shape.
 */
export async function requestJson<T>(
  method: HttpMethod,
  path: string,
  schema: ResponseSchema<T>,
  options?: RequestOptions,
): Promise<T> {
  const [response, contract] = await Promise.all([
    apiFetch(method, path, options),
    typeof schema === 'function' ? schema() : schema,
  ]);
  const parsed = contract.safeParse(await response.json());
  if (!parsed.success) {
    throw new Error(`Unexpected response from ${method} ${path}`, { cause: parsed.error });
  }
  return parsed.data;
}

/** Sends a request whose answer carries nothing the caller needs (204, or a body it ignores). */
export async function sendRequest(
  method: HttpMethod,
  path: string,
  options?: RequestOptions,
): Promise<void> {
  await apiFetch(method, path, options);
}

export function getJson<T>(
  path: string,
  schema: ResponseSchema<T>,
  signal?: AbortSignal,
): Promise<T> {
  return requestJson('GET', path, schema, { signal });
}

export function postJson<T>(path: string, body: unknown, schema: ResponseSchema<T>): Promise<T> {
  return requestJson('POST', path, schema, { body });
}

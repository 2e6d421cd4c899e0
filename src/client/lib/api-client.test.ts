import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from '#shared/validation.ts';
import { ApiError, getJson, loadedOnce, postJson, sendRequest } from './api-client.ts';

function stubResponse(response: Response) {
  const fetchMock = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) =>
    Promise.resolve(response),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function rejectionOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

const okSchema = z.object({ ok: z.boolean() });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api client requests', () => {
  it('sends cookies, asks for JSON, bypasses the cache and encodes the body as JSON', async () => {
    const fetchMock = stubResponse(Response.json({ ok: true }));

    await expect(postJson('/api/login', { username: 'ace' }, okSchema)).resolves.toEqual({
      ok: true,
    });

    expect(fetchMock).toHaveBeenCalledWith('/api/login', {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      credentials: 'include',
      cache: 'no-store',
      body: '{"username":"ace"}',
      signal: undefined,
    });
  });

  it('sends no body and no content type on a GET', async () => {
    const fetchMock = stubResponse(Response.json({ ok: true }));

    await getJson('/api/user', okSchema);

    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.method).toBe('GET');
    expect(init?.body).toBeUndefined();
    expect(init?.headers).toEqual({ Accept: 'application/json' });
  });

  it('accepts an empty 204 answer where no body is expected', async () => {
    stubResponse(new Response(null, { status: 204 }));
    await expect(sendRequest('POST', '/api/logout')).resolves.toBeUndefined();
  });

  it('refuses a success answer that breaks the contract', async () => {
    stubResponse(Response.json({ ok: 'yes' }));
    await expect(getJson('/api/user', okSchema)).rejects.toThrow(
      'Unexpected response from GET /api/user',
    );
  });

  it('checks the answer against a contract it loads while the request is under way', async () => {
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    const load = vi.fn(() => Promise.resolve(okSchema));

    const request = getJson('/api/user', load);
    expect(load).toHaveBeenCalledOnce();
    answer(Response.json({ ok: true }));

    await expect(request).resolves.toEqual({ ok: true });
  });

  it('refuses a success answer that breaks a loaded contract', async () => {
    stubResponse(Response.json({ ok: 'yes' }));
    await expect(getJson('/api/user', () => Promise.resolve(okSchema))).rejects.toThrow(
      'Unexpected response from GET /api/user',
    );
  });
});

describe('loadedOnce', () => {
  it('builds a contract once for every request, and tries again after a failed load', async () => {
    const load = vi
      .fn<() => Promise<typeof okSchema>>()
      .mockRejectedValueOnce(new Error('chunk failed'))
      .mockResolvedValue(okSchema);
    const contract = loadedOnce(load);

    await expect(contract()).rejects.toThrow('chunk failed');
    expect(await contract()).toBe(okSchema);
    expect(await contract()).toBe(okSchema);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('api client errors: "status: body text" (docs/product.md#calls)', () => {
  it('uses the message of a JSON error body and keeps its code', async () => {
    stubResponse(
      Response.json(
        { code: 'INVALID_CREDENTIALS', message: 'Invalid username or password' },
        { status: 401 },
      ),
    );

    const error = await rejectionOf(postJson('/api/login', {}, okSchema));

    expect(error.message).toBe('401: Invalid username or password');
    expect(error.status).toBe(401);
    expect(error.code).toBe('INVALID_CREDENTIALS');
    expect(error.fields).toBeUndefined();
  });

  it('keeps per-field messages and the retry delay', async () => {
    stubResponse(
      Response.json(
        {
          code: 'VALIDATION_FAILED',
          message: 'Invalid input',
          fields: { username: 'Username already exists' },
          retryAfter: 30,
        },
        { status: 400 },
      ),
    );

    const error = await rejectionOf(postJson('/api/register', {}, okSchema));

    expect(error.message).toBe('400: Invalid input');
    expect(error.fields).toEqual({ username: 'Username already exists' });
    expect(error.retryAfter).toBe(30);
  });

  it('falls back to the Retry-After header for the retry delay', async () => {
    stubResponse(
      new Response(JSON.stringify({ code: 'RATE_LIMITED', message: 'Too many attempts' }), {
        status: 429,
        headers: { 'Retry-After': '42' },
      }),
    );

    const error = await rejectionOf(postJson('/api/login', {}, okSchema));

    expect(error.message).toBe('429: Too many attempts');
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.retryAfter).toBe(42);
  });

  it('uses the raw body when it is not JSON', async () => {
    stubResponse(new Response('Upstream exploded', { status: 502, statusText: 'Bad Gateway' }));
    const error = await rejectionOf(getJson('/api/user', okSchema));
    expect(error.message).toBe('502: Upstream exploded');
    expect(error.code).toBeUndefined();
  });

  it('uses the raw body when the JSON has no message', async () => {
    stubResponse(new Response('{"error":"nope"}', { status: 400, statusText: 'Bad Request' }));
    const error = await rejectionOf(getJson('/api/user', okSchema));
    expect(error.message).toBe('400: {"error":"nope"}');
  });

  it('uses the status text when the body is empty', async () => {
    stubResponse(new Response('', { status: 503, statusText: 'Service Unavailable' }));
    const error = await rejectionOf(getJson('/api/user', okSchema));
    expect(error.message).toBe('503: Service Unavailable');
  });

  it('never ends in a bare colon when body and status text are both empty', async () => {
    stubResponse(new Response(null, { status: 500 }));
    const error = await rejectionOf(getJson('/api/user', okSchema));
    expect(error.message).toBe('500: Request failed');
  });

  it('ignores a code that is not one of the contract codes', async () => {
    stubResponse(Response.json({ code: 'TEAPOT', message: 'Short and stout' }, { status: 418 }));
    const error = await rejectionOf(getJson('/api/user', okSchema));
    expect(error.message).toBe('418: Short and stout');
    expect(error.code).toBeUndefined();
  });
});

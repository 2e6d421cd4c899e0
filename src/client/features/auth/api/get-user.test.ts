import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, stubFetch } from '#client/test-utils/render-app.tsx';
import { getUser } from './get-user.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('getUser', () => {
  it('returns the signed-in user', async () => {
    stubFetch(() => jsonResponse(200, makeUser({ username: 'ace_player' })));
    await expect(getUser()).resolves.toMatchObject({ username: 'ace_player' });
  });

  it('returns null on 401: an anonymous visitor is not an error', async () => {
    stubFetch(() => jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Not signed in' }));
    await expect(getUser()).resolves.toBeNull();
  });

  it('fails with "Failed to fetch user" on anything else', async () => {
    stubFetch(() => new Response('boom', { status: 500 }));
    await expect(getUser()).rejects.toThrow('Failed to fetch user');
  });
});

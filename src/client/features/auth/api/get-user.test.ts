import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '#client/lib/query-client.ts';
import { jsonResponse, makeUser, stubFetch } from '#client/test-utils/render-app.tsx';
import { SESSION_USER_ELEMENT_ID } from '#shared/session-user.ts';
import { getUser, seedUserFromPage, userFromPage, userQueryKey } from './get-user.ts';
import { pageWithBlock } from '#client/test-utils/page.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.doUnmock('#shared/contracts/user.ts');
});

const page = (block?: string) => pageWithBlock(SESSION_USER_ELEMENT_ID, block);

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

describe('userFromPage', () => {
  it('reads the user the server named, and null for nobody signed in', async () => {
    const user = makeUser({ username: 'ace_player' });
    await expect(userFromPage(page(JSON.stringify(user)))).resolves.toEqual(user);
    await expect(userFromPage(page('null'))).resolves.toBeNull();
  });

  it('reads a value whose < the server escaped', async () => {
    const user = makeUser({ username: '</script><b>' });
    const escaped = JSON.stringify(user).replaceAll('<', '\\u003c');
    await expect(userFromPage(page(escaped))).resolves.toEqual(user);
  });

  it('says nothing when the page does not, or says something unreadable: the client asks', async () => {
    await expect(userFromPage(page())).resolves.toBeUndefined();
    await expect(userFromPage(page(''))).resolves.toBeUndefined();
    await expect(userFromPage(page('{"id":'))).resolves.toBeUndefined();
    await expect(userFromPage(page('{"id":"one"}'))).resolves.toBeUndefined();
  });

  it('reads nobody without the user contract, and leaves a user to the API when it cannot load', async () => {
    vi.doMock('#shared/contracts/user.ts', () => {
      throw new Error('the contract could not be loaded');
    });
    await expect(userFromPage(page('null'))).resolves.toBeNull();
    await expect(userFromPage(page(JSON.stringify(makeUser())))).resolves.toBeUndefined();
  });
});

describe('seedUserFromPage', () => {
  it('puts the user the page names in the cache and asks the API nothing', async () => {
    const fetchMock = stubFetch(() => jsonResponse(500, {}));
    const queryClient = createQueryClient();
    const user = makeUser({ username: 'ace_player' });

    await seedUserFromPage(queryClient, page(JSON.stringify(user)));

    expect(queryClient.getQueryData(userQueryKey)).toEqual(user);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks the API at once when the page does not say', async () => {
    const user = makeUser({ username: 'ace_player' });
    stubFetch(() => jsonResponse(200, user));
    const queryClient = createQueryClient();

    await seedUserFromPage(queryClient, page());

    await vi.waitFor(() => expect(queryClient.getQueryData(userQueryKey)).toEqual(user));
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, stubFetch } from '#client/test-utils/render-app.tsx';
import { SESSION_USER_ELEMENT_ID } from '#shared/session-user.ts';
import { getUser, userFromPage } from './get-user.ts';

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

describe('userFromPage', () => {
  function page(block?: string): Document {
    const document = new DOMParser().parseFromString('<!doctype html><body></body>', 'text/html');
    if (block !== undefined) {
      const script = document.createElement('script');
      script.type = 'application/json';
      script.id = SESSION_USER_ELEMENT_ID;
      script.textContent = block;
      document.body.append(script);
    }
    return document;
  }

  it('reads the user the server named, and null for nobody signed in', () => {
    const user = makeUser({ username: 'ace_player' });
    expect(userFromPage(page(JSON.stringify(user)))).toEqual(user);
    expect(userFromPage(page('null'))).toBeNull();
  });

  it('reads a value whose < the server escaped', () => {
    const user = makeUser({ username: '</script><b>' });
    const escaped = JSON.stringify(user).replaceAll('<', '\\u003c');
    expect(userFromPage(page(escaped))).toEqual(user);
  });

  it('says nothing when the page does not, or says something unreadable: the client asks', () => {
    expect(userFromPage(page())).toBeUndefined();
    expect(userFromPage(page(''))).toBeUndefined();
    expect(userFromPage(page('{"id":'))).toBeUndefined();
    expect(userFromPage(page('{"id":"one"}'))).toBeUndefined();
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '#server/db/schema/uploads.ts';
import { ensureAdmin } from '#server/features/accounts/admin-bootstrap.ts';
import { detectFileType } from '#server/lib/file-type.ts';
import { fund } from '#tests/helpers/money.ts';
import { multipart, sampleFile, SAMPLE_FILES } from '#tests/helpers/multipart.ts';
import {
  Agent,
  createTestApp,
  signUp,
  uniqueUsername,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { UPLOAD_BYTES_MAX, UPLOAD_MESSAGES } from '#shared/contracts/uploads.ts';

let t: TestApp;
let challengeId: number;
let creator: Awaited<ReturnType<typeof signUp>>;
let acceptor: Awaited<ReturnType<typeof signUp>>;
let outsider: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await createTestApp();
  creator = await signUp(t.app);
  acceptor = await signUp(t.app);
  outsider = await signUp(t.app);
  await fund(t.database, creator.user.id, 1000n);
  await fund(t.database, acceptor.user.id, 1000n);
  const created = await creator.agent.post('/api/challenges', {
    game: 'Halo',
    amount: 10,
    gamerTag: 'Chief',
    phoneNumber: '5550105000',
    console: 'Xbox',
  });
  challengeId = created.json().id;
  await acceptor.agent.post(`/api/challenges/${challengeId}/accept`);
});
afterAll(async () => {
  await t.close();
});

function upload(agent: Agent, file: ReturnType<typeof multipart>) {
  return agent.request({
    method: 'POST',
    url: `/api/challenges/${challengeId}/upload-screenshot`,
    payload: file.payload,
    headers: file.headers,
  });
}

describe('detectFileType', () => {
  it('recognises each accepted format by its bytes and nothing else', async () => {
    const expected = {
      png: 'image/png',
      jpeg: 'image/jpeg',
      gif: 'image/gif',
      webp: 'image/webp',
      bmp: 'image/bmp',
      tiff: 'image/tiff',
      heic: 'image/heic',
      heif: 'image/heif',
      pdf: 'application/pdf',
      mp4: 'video/mp4',
      webm: 'video/webm',
      exe: null,
    } as const;
    for (const [kind, type] of Object.entries(expected)) {
      expect(await detectFileType(sampleFile(kind as keyof typeof SAMPLE_FILES)), kind).toBe(type);
    }
    expect(await detectFileType(new TextEncoder().encode('<svg onload="alert(1)">'))).toBeNull();
    // A PNG signature alone, cut short before its first chunk, is not a picture.
    expect(await detectFileType(Uint8Array.from(SAMPLE_FILES.png.slice(0, 8)))).toBeNull();
  });
});

describe('POST /api/challenges/:id/upload-screenshot', () => {
  it('stores an image privately and serves it to the players as an attachment', async () => {
    const bytes = sampleFile('png', 2048);
    const response = await upload(
      creator.agent,
      multipart('screenshot', 'win.png', 'image/png', bytes),
    );
    expect(response.statusCode).toBe(201);
    const { id, url } = response.json();
    expect(url).toBe(`/api/uploads/${id}`);

    for (const player of [creator, acceptor]) {
      const file = await player.agent.get(url);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.headers['content-disposition']).toMatch(/^attachment;/);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(Buffer.compare(file.rawPayload, Buffer.from(bytes))).toBe(0);
    }
    // The upload's path is accepted as the submission's screenshot.
    const submit = await acceptor.agent.post(`/api/challenges/${challengeId}/submit`, {
      creatorScore: 0,
      acceptorScore: 0,
      screenshot: url,
      disputeReason: 'checking uploads',
    });
    expect(submit.statusCode).toBe(200);
  });

  it('keeps the file name without its control characters, which PostgreSQL could not store', async () => {
    const response = await upload(
      creator.agent,
      multipart('screenshot', 'win\u0000\u001b[2J.png', 'image/png', sampleFile('png')),
    );
    expect(response.statusCode).toBe(201);
    const [row] = await t.database.db
      .select({ originalName: uploads.originalName })
      .from(uploads)
      .where(eq(uploads.id, response.json<{ id: string }>().id));
    expect(row?.originalName).toBe('win[2J.png');
  });

  it('another user cannot fetch it, and gets the same answer as for a missing file', async () => {
    const { url } = (
      await upload(creator.agent, multipart('screenshot', 'a.png', 'image/png', sampleFile('png')))
    ).json();
    const foreign = await outsider.agent.get(url);
    expect(foreign.statusCode).toBe(404);
    const missing = await outsider.agent.get('/api/uploads/00000000-0000-4000-8000-000000000000');
    expect(missing.json()).toEqual(foreign.json());
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('an admin can fetch it', async () => {
    const { url } = (
      await upload(creator.agent, multipart('screenshot', 'a.png', 'image/png', sampleFile('png')))
    ).json();
    const name = uniqueUsername('upadmin');
    await ensureAdmin(t.database.db, t.bus, name, 'admin-password');
    const admin = new Agent(t.app);
    await admin.post('/api/login', { username: name, password: 'admin-password' });
    expect((await admin.get(url)).statusCode).toBe(200);
  });

  it.each(['jpeg', 'gif', 'webp', 'heic'] as const)('accepts a %s screenshot', async (kind) => {
    const response = await upload(
      acceptor.agent,
      multipart('screenshot', `s.${kind}`, `image/${kind}`, sampleFile(kind)),
    );
    expect(response.statusCode).toBe(201);
  });

  it('refuses an executable renamed .png, and a PDF (not an image)', async () => {
    for (const kind of ['exe', 'pdf'] as const) {
      const response = await upload(
        creator.agent,
        multipart('screenshot', 'innocent.png', 'image/png', sampleFile(kind)),
      );
      expect(response.statusCode).toBe(415);
      expect(response.json()).toMatchObject({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: UPLOAD_MESSAGES.invalidType,
      });
    }
  });

  it('refuses a file over 25 MB with 413', async () => {
    const bytes = new Uint8Array(UPLOAD_BYTES_MAX + 1);
    bytes.set(SAMPLE_FILES.png);
    const response = await upload(
      creator.agent,
      multipart('screenshot', 'big.png', 'image/png', bytes),
    );
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe(UPLOAD_MESSAGES.tooLarge);
  });

  it('accepts exactly 25 MB', async () => {
    const bytes = new Uint8Array(UPLOAD_BYTES_MAX);
    bytes.set(SAMPLE_FILES.png);
    const response = await upload(
      creator.agent,
      multipart('screenshot', 'max.png', 'image/png', bytes),
    );
    expect(response.statusCode).toBe(201);
  });

  it('refuses a missing field, a wrong field name and a non-multipart body', async () => {
    const wrongField = await upload(
      creator.agent,
      multipart('image', 'a.png', 'image/png', sampleFile('png')),
    );
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().message).toBe(UPLOAD_MESSAGES.noFile);
    const json = await creator.agent.post(`/api/challenges/${challengeId}/upload-screenshot`, {
      screenshot: 'x',
    });
    expect(json.statusCode).toBe(400);
  });

  it('refuses a non-participant', async () => {
    const response = await upload(
      outsider.agent,
      multipart('screenshot', 'a.png', 'image/png', sampleFile('png')),
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('NOT_PARTICIPANT');
  });
});

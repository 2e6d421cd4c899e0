import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '#shared/contracts/admin.ts';
import { LICENSE_FIELD, PROFILE_MESSAGES } from '#shared/contracts/profile.ts';
import { UPLOAD_BYTES_MAX, UPLOAD_MESSAGES } from '#shared/contracts/uploads.ts';
import { multipart, sampleFile, SAMPLE_FILES } from '#tests/helpers/multipart.ts';
import { createTestApp, signUp, type Agent, type TestApp } from '#tests/helpers/test-app.ts';
import { auditEntriesFor, signInAdmin } from '../admin/testing/admin-agent.ts';

let t: TestApp;
let admin: Agent;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp({ env: { FREE_SITE_URL: 'https://free.example.com/' } });
  ({ agent: admin, id: adminId } = await signInAdmin(t));
});
afterAll(async () => {
  await t.close();
});

function uploadLicense(agent: Agent, file: ReturnType<typeof multipart>) {
  return agent.request({
    method: 'POST',
    url: '/api/user/upload-license',
    payload: file.payload,
    headers: file.headers,
  });
}

const license = (
  kind: keyof typeof SAMPLE_FILES = 'png',
  name = 'licence.png',
  type = 'image/png',
  bytes = sampleFile(kind),
) => multipart(LICENSE_FIELD, name, type, bytes);

async function verificationsOf(userId: number) {
  const list = (await admin.get('/api/admin/verifications?limit=100')).json<
    Array<{ id: number; userId: number; status: string; fileUrl: string; note: string | null }>
  >();
  return list.filter((v) => v.userId === userId);
}

describe('GET /api/profile/config', () => {
  it('gives the free site link from FREE_SITE_URL, and the states where cash play is refused', async () => {
    const { agent } = await signUp(t.app);
    expect((await agent.get('/api/profile/config')).json()).toEqual({
      freeSiteUrl: 'https://free.example.com/',
      excludedStates: ['AR', 'AZ', 'DE', 'LA', 'MD', 'MT', 'SC', 'SD', 'TN'],
    });
  });
});

describe('POST /api/user/update-email', () => {
  it('stores the address, lower-cased, and answers the updated user', async () => {
    const { agent } = await signUp(t.app, { email: '' });
    expect((await agent.get('/api/user')).json().email).toBeNull();
    const response = await agent.post('/api/user/update-email', { email: ' New@Example.COM ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email: 'new@example.com', balance: 0 });
    expect((await agent.get('/api/user')).json().email).toBe('new@example.com');
  });

  it.each([['no-at-sign.com'], ['a@b'], ['two words@example.com'], [''], [42]])(
    'refuses %o with the SPEC message',
    async (email) => {
      const { agent } = await signUp(t.app);
      const response = await agent.post('/api/user/update-email', { email });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: PROFILE_MESSAGES.emailInvalid,
        fields: { email: PROFILE_MESSAGES.emailInvalid },
      });
    },
  );

  it('needs a session', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/update-email',
      payload: { email: 'a@b.co' },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /api/user/upload-license', () => {
  it.each([
    ['png', 'id.png', 'image/png'],
    ['jpeg', 'id.jpeg', 'image/jpeg'],
    ['jpeg', 'id.jpg', 'image/jpg'],
    ['gif', 'id.gif', 'image/gif'],
    ['pdf', 'id.pdf', 'application/pdf'],
    ['webp', 'id.webp', 'image/webp'],
    ['heic', 'id.heic', 'image/heic'],
    ['heif', 'id.heif', 'image/heif'],
    ['tiff', 'id.tiff', 'image/tiff'],
    ['bmp', 'id.bmp', 'image/bmp'],
  ] as const)('accepts a %s file (%s) and queues it for review', async (kind, name, type) => {
    const { agent } = await signUp(t.app);
    const response = await uploadLicense(agent, license(kind, name, type));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      message: PROFILE_MESSAGES.licenseUploaded,
      status: 'pending',
    });
    expect((await agent.get('/api/user/verification')).json()).toMatchObject({ status: 'pending' });
  });

  it('refuses bytes that are not the claimed type, and an executable renamed .png (415)', async () => {
    const { agent } = await signUp(t.app);
    const text = new TextEncoder().encode('just some text pretending to be a PDF document');
    for (const file of [
      license('png', 'id.pdf', 'application/pdf', text),
      license('exe', 'id.png', 'image/png'),
    ]) {
      const response = await uploadLicense(agent, file);
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: UPLOAD_MESSAGES.invalidType,
      });
    }
    expect((await agent.get('/api/user/verification')).json().status).toBe('none');
  });

  it('refuses 25 MB + 1 byte with 413 and accepts exactly 25 MB', async () => {
    const { agent } = await signUp(t.app);
    const tooBig = new Uint8Array(UPLOAD_BYTES_MAX + 1);
    tooBig.set(SAMPLE_FILES.pdf);
    const refused = await uploadLicense(agent, license('pdf', 'id.pdf', 'application/pdf', tooBig));
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: UPLOAD_MESSAGES.tooLarge,
    });
    expect((await agent.get('/api/user/verification')).json().status).toBe('none');
    const exact = await uploadLicense(
      agent,
      license('pdf', 'id.pdf', 'application/pdf', tooBig.subarray(0, UPLOAD_BYTES_MAX)),
    );
    expect(exact.statusCode).toBe(201);
  });

  it('refuses a missing field, another field name and a JSON body', async () => {
    const { agent } = await signUp(t.app);
    const wrong = await uploadLicense(
      agent,
      multipart('license', 'id.png', 'image/png', sampleFile('png')),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: UPLOAD_MESSAGES.noFile });
    const json = await agent.post('/api/user/upload-license', { driversLicense: 'x' });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe(UPLOAD_MESSAGES.noFile);
  });

  it('is readable by admins only: not by another player, not even by its owner', async () => {
    const owner = await signUp(t.app);
    const outsider = await signUp(t.app);
    const bytes = sampleFile('pdf', 1024);
    await uploadLicense(owner.agent, license('pdf', 'id.pdf', 'application/pdf', bytes));
    const [queued] = await verificationsOf(owner.user.id);
    expect(queued?.fileUrl).toMatch(/^\/api\/uploads\/[0-9a-f-]{36}$/);
    const url = queued!.fileUrl;
    const missing = await outsider.agent.get('/api/uploads/00000000-0000-4000-8000-000000000000');
    for (const agent of [outsider.agent, owner.agent]) {
      const response = await agent.get(url);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(missing.json());
    }
    const file = await admin.get(url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toMatch(/^attachment;/);
    expect(Buffer.compare(file.rawPayload, Buffer.from(bytes))).toBe(0);
  });

  it('uploading again while a review is pending replaces the file instead of queueing twice', async () => {
    const { agent, user } = await signUp(t.app);
    await uploadLicense(agent, license('png'));
    const [first] = await verificationsOf(user.id);
    await uploadLicense(agent, license('pdf', 'id.pdf', 'application/pdf'));
    const pending = await verificationsOf(user.id);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ id: first?.id, status: 'pending' });
    expect(pending[0]?.fileUrl).not.toBe(first?.fileUrl);
  });
});

describe('ID verification review', () => {
  it('none → pending → approved, once, with the audit entry', async () => {
    const { agent, user } = await signUp(t.app);
    expect((await agent.get('/api/user/verification')).json()).toEqual({
      status: 'none',
      note: null,
      submittedAt: null,
      reviewedAt: null,
    });
    await uploadLicense(agent, license());
    const [queued] = await verificationsOf(user.id);
    const pendingQueue = (await admin.get('/api/admin/verifications?status=pending')).json<
      Array<{ id: number }>
    >();
    expect(pendingQueue.some((v) => v.id === queued?.id)).toBe(true);

    const approve = await admin.post(`/api/admin/verifications/${queued?.id}/approve`);
    expect(approve.statusCode).toBe(200);
    expect(approve.json()).toMatchObject({
      status: 'approved',
      reviewedBy: adminId,
      reviewedAt: expect.any(String),
      username: user.username,
      contentType: 'image/png',
    });
    expect((await agent.get('/api/user/verification')).json()).toMatchObject({
      status: 'approved',
      reviewedAt: expect.any(String),
    });
    const again = await admin.post(`/api/admin/verifications/${queued?.id}/reject`, {
      note: 'changed my mind',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'VERIFICATION_NOT_PENDING',
      message: ADMIN_MESSAGES.verificationApproved,
    });
    const audit = await auditEntriesFor(t.database, { type: 'verification', id: queued!.id });
    expect(audit.map((entry) => entry.action)).toEqual(['verification.approve']);
  });

  it('a rejection needs a note, which the player sees', async () => {
    const { agent, user } = await signUp(t.app);
    await uploadLicense(agent, license());
    const [queued] = await verificationsOf(user.id);
    const noNote = await admin.post(`/api/admin/verifications/${queued?.id}/reject`, {});
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().message).toBe(ADMIN_MESSAGES.rejectionNoteRequired);
    const reject = await admin.post(`/api/admin/verifications/${queued?.id}/reject`, {
      note: 'The photo is blurred',
    });
    expect(reject.json()).toMatchObject({ status: 'rejected', note: 'The photo is blurred' });
    expect((await agent.get('/api/user/verification')).json()).toMatchObject({
      status: 'rejected',
      note: 'The photo is blurred',
    });
    const [audit] = await auditEntriesFor(t.database, { type: 'verification', id: queued!.id });
    expect(audit).toMatchObject({ action: 'verification.reject', reason: 'The photo is blurred' });

    // A new upload after a rejection starts a new review.
    await uploadLicense(agent, license());
    expect((await agent.get('/api/user/verification')).json().status).toBe('pending');
  });

  it('answers 404 for an unknown verification', async () => {
    expect((await admin.post('/api/admin/verifications/999999/approve')).statusCode).toBe(404);
  });
});

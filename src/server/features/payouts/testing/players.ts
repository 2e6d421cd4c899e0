import { LICENSE_FIELD } from '#shared/contracts/profile.ts';
import { fund } from '#tests/helpers/money.ts';
import { multipart, sampleFile } from '#tests/helpers/multipart.ts';
import { signUp, type Agent, type TestApp } from '#tests/helpers/test-app.ts';

/** Uploads a licence as the player and answers the id of the review it is waiting for. */
export async function uploadLicence(admin: Agent, agent: Agent, userId: number): Promise<number> {
  const file = multipart(LICENSE_FIELD, 'licence.png', 'image/png', sampleFile('png'));
  const response = await agent.request({
    method: 'POST',
    url: '/api/user/upload-license',
    payload: file.payload,
    headers: file.headers,
  });
  if (response.statusCode !== 201) throw new Error(`licence upload failed: ${response.body}`);
  const list = (await admin.get('/api/admin/verifications?status=pending')).json<
    Array<{ id: number; userId: number }>
  >();
  const mine = list.find((row) => row.userId === userId);
  if (!mine) throw new Error(`no pending verification for user ${userId}`);
  return mine.id;
}

/** A funded player whose ID an admin has approved (docs/responsible-play.md). */
export async function verifiedPlayer(t: TestApp, admin: Agent, cents: bigint) {
  const player = await signUp(t.app);
  await fund(t.database, player.user.id, cents);
  const id = await uploadLicence(admin, player.agent, player.user.id);
  const approval = await admin.post(`/api/admin/verifications/${id}/approve`);
  if (approval.statusCode !== 200) throw new Error(`approval failed: ${approval.body}`);
  return player;
}

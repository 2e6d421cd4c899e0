import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { REPORT_MESSAGES } from '#shared/contracts/reports.ts';
import {
  makeAcceptedChallenge,
  makePlayer,
  parseRequestUrl,
} from '#client/test-utils/challenges.ts';
import {
  jsonResponse,
  makeUser,
  renderApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Rival (2) has a record; the viewer is ace_player (1) unless said otherwise. */
const MATCH = makeAcceptedChallenge({
  creator: makePlayer({
    id: 2,
    username: 'rival',
    phoneNumber: '+1 555 987 6543',
    record: { played: 34, won: 24, lost: 10, disputesLost: 1 },
  }),
});

/** The same match, played: reporting after a result is the common case. */
const PLAYED: ChallengeView = {
  ...MATCH,
  status: 'completed',
  winnerId: 2,
  creatorScore: 3,
  acceptorScore: 1,
  submittedBy: 2,
};

function serve(
  challenge: ChallengeView,
  onReport: FetchHandler = () => jsonResponse(201, { id: 9, message: REPORT_MESSAGES.received }),
  viewer = makeUser({ id: 1 }),
) {
  return stubFetch((request) => {
    const { path } = parseRequestUrl(request.url);
    if (path === '/api/user') return jsonResponse(200, viewer);
    if (path === '/api/challenges/11') return jsonResponse(200, challenge);
    if (request.method === 'POST' && path === '/api/players/rival/report') return onReport(request);
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

async function openReport() {
  const user = userEvent.setup();
  renderApp('/challenges/11');
  await user.click(await screen.findByRole('button', { name: 'REPORT PLAYER' }));
  const dialog = await screen.findByRole('dialog', { name: 'Report rival' });
  return { user, dialog };
}

describe('the challenge page for its players', () => {
  it('shows the opponent’s record, not the viewer’s own', async () => {
    serve(MATCH);
    renderApp('/challenges/11');
    await screen.findByRole('button', { name: 'REPORT PLAYER' });
    const records = screen.getAllByText(/^Record:/).map((line) => line.parentElement?.textContent);
    expect(records).toEqual(['Record: 34 played · 71% won · 1 dispute lost']);
  });

  it('reports the opponent with the reason and this challenge, and says it was sent', async () => {
    const fetchMock = serve(MATCH);
    const { user, dialog } = await openReport();

    await user.click(within(dialog).getByRole('button', { name: 'SEND REPORT' }));
    const reason = within(dialog).getByLabelText('What happened?');
    expect(reason).toHaveAccessibleDescription(
      expect.stringContaining(REPORT_MESSAGES.reasonRequired),
    );

    await user.type(reason, 'Sent a screenshot from another match');
    await user.click(within(dialog).getByRole('button', { name: 'SEND REPORT' }));
    expect(await findToast('Report sent')).toHaveTextContent(REPORT_MESSAGES.received);
    const posted = fetchMock.mock.calls.find(
      ([input, init]) => String(input) === '/api/players/rival/report' && init?.method === 'POST',
    );
    expect(JSON.parse(String(posted?.[1]?.body))).toEqual({
      reason: 'Sent a screenshot from another match',
      challengeId: 11,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps the dialog open and toasts the server’s refusal', async () => {
    serve(PLAYED, () =>
      jsonResponse(429, { code: 'RATE_LIMITED', message: REPORT_MESSAGES.tooMany, retryAfter: 60 }),
    );
    const { user, dialog } = await openReport();
    await user.type(within(dialog).getByLabelText('What happened?'), 'Rage quit');
    await user.click(within(dialog).getByRole('button', { name: 'SEND REPORT' }));
    expect(await findToast('Report not sent')).toHaveTextContent(`429: ${REPORT_MESSAGES.tooMany}`);
    expect(screen.getByRole('dialog', { name: 'Report rival' })).toBeInTheDocument();
  });

  it('is not offered to someone who did not play the match', async () => {
    serve(MATCH, undefined, makeUser({ id: 3, username: 'onlooker' }));
    renderApp('/challenges/11');
    expect(await screen.findByRole('heading', { level: 1, name: 'EA FC 25' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'REPORT PLAYER' })).toBeNull();
    // An onlooker sees both players' records.
    expect(screen.getAllByText(/^Record:/)).toHaveLength(2);
  });
});

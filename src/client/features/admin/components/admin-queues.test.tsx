import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { ADMIN_MESSAGES } from '#shared/contracts/admin.ts';
import { PAYOUT_MESSAGES } from '#shared/contracts/payouts.ts';
import type { AdminTournamentDispute, TournamentDetail } from '#shared/contracts/tournaments.ts';
import {
  makeAuditEntry,
  makeDispute,
  makeVerification,
  OPERATOR,
} from '#client/test-utils/admin.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import { makeAdminPayout } from '#client/test-utils/payouts.ts';
import {
  jsonResponse,
  renderApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';

// The route is a lazily loaded chunk; loading it once here keeps the first test's wait short.
beforeAll(async () => {
  await import('#client/app/routes/admin.tsx');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const HEALTHY = { ok: true, problems: [], checkedAt: '2025-03-14T12:00:00.000Z' };

/** The admin API: GET lists by path, and POSTs answered by `onPost`. */
function serve(
  lists: Record<string, unknown>,
  onPost: FetchHandler = () => jsonResponse(500, { code: 'INTERNAL', message: 'unexpected' }),
) {
  return stubFetch((request) => {
    const { path } = parseRequestUrl(request.url);
    if (path === '/api/user') return jsonResponse(200, OPERATOR);
    if (request.method === 'POST') return onPost(request);
    if (path in lists) return jsonResponse(200, lists[path]);
    if (path === '/api/admin/ledger-health') return jsonResponse(200, HEALTHY);
    if (path === '/api/admin/audit') return jsonResponse(200, { items: [], nextBefore: null });
    return jsonResponse(200, []);
  });
}

function postsTo(fetchMock: ReturnType<typeof stubFetch>, path: string) {
  return fetchMock.mock.calls
    .filter(([input, init]) => String(input) === path && init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
}

async function openTab(name: string) {
  const user = userEvent.setup();
  renderApp('/admin');
  await user.click(await screen.findByRole('tab', { name }));
  return user;
}

describe('ledger health line', () => {
  it('lists the problems when the invariant check fails', async () => {
    serve({
      '/api/admin/ledger-health': {
        ok: false,
        problems: ['sum of all accounts is 500, not 0', 'user:3 cached balance differs'],
        checkedAt: '2025-03-14T12:00:00.000Z',
      },
    });
    renderApp('/admin');

    const line = await screen.findByRole('region', { name: 'Ledger health' });
    expect(await within(line).findByText('LEDGER PROBLEMS')).toBeInTheDocument();
    const problems = within(line).getByRole('list', { name: 'Ledger problems' });
    expect(
      within(problems)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['sum of all accounts is 500, not 0', 'user:3 cached balance differs']);
  });
});

describe('disputes queue', () => {
  it('shows whether the stakes are in escrow', async () => {
    serve({
      '/api/admin/disputes': [
        makeDispute({ id: 21, game: 'Halo' }),
        makeDispute({ id: 20, game: 'Tekken 8', stakesInEscrow: false, winnerId: 2 }),
      ],
    });
    await openTab('DISPUTES');

    const list = await screen.findByRole('list', { name: 'Disputes' });
    const [halo, tekken] = within(list).getAllByRole('article');
    expect(halo).toHaveTextContent('STAKES IN ESCROW');
    expect(halo).toHaveTextContent('The score was 2-3, not 3-2');
    expect(halo).toHaveTextContent('Submitted byrival');
    expect(tekken).toHaveTextContent('ALREADY PAID OUT');
    expect(tekken).toHaveTextContent('Paid torival');
  });

  it('shows a held result as such, and both sides’ evidence side by side in the decision', async () => {
    serve({
      '/api/admin/disputes': [
        makeDispute({ stakesInEscrow: false, heldForReview: true, winnerId: 2 }),
      ],
      '/api/challenges/21/evidence': [
        {
          id: 1,
          userId: 2,
          username: 'rival',
          statement: 'I won fair and square.',
          file: null,
          createdAt: '2025-03-14T12:00:00.000Z',
        },
        {
          id: 2,
          userId: 1,
          username: 'ace_player',
          statement: 'The last goal was after the whistle.',
          file: { url: '/api/uploads/abc', contentType: 'video/mp4', name: 'goal.mp4' },
          createdAt: '2025-03-14T12:05:00.000Z',
        },
      ],
    });
    const user = await openTab('DISPUTES');
    const list = await screen.findByRole('list', { name: 'Disputes' });
    const [row] = within(list).getAllByRole('article');
    expect(row).toHaveTextContent('WINNINGS HELD FOR REVIEW');
    expect(row).not.toHaveTextContent('Paid to');

    await user.click(within(list).getByRole('button', { name: 'RESOLVE' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve Dispute' });
    expect(dialog).toHaveTextContent('still held for review');
    const rival = await within(dialog).findByRole('region', { name: 'Evidence from rival' });
    expect(rival).toHaveTextContent('I won fair and square.');
    const ace = within(dialog).getByRole('region', { name: 'Evidence from ace_player' });
    expect(ace).toHaveTextContent('The last goal was after the whistle.');
    expect(within(ace).getByRole('link', { name: /goal.mp4/ })).toHaveAttribute(
      'href',
      '/api/uploads/abc',
    );
  });

  it('needs an outcome and a note, then sends the decision', async () => {
    const fetchMock = serve({ '/api/admin/disputes': [makeDispute()] }, () =>
      jsonResponse(200, makeDispute({ status: 'completed', winnerId: 1, disputeReason: null })),
    );
    const user = await openTab('DISPUTES');
    const list = await screen.findByRole('list', { name: 'Disputes' });

    await user.click(within(list).getByRole('button', { name: 'RESOLVE' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve Dispute' });
    expect(dialog).toHaveTextContent('Both stakes are still in escrow.');
    await user.click(within(dialog).getByRole('button', { name: 'CONFIRM DECISION' }));
    expect(await within(dialog).findByText(ADMIN_MESSAGES.outcomeInvalid)).toBeInTheDocument();
    expect(within(dialog).getByText(ADMIN_MESSAGES.noteRequired)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('radio', { name: /Award to ace_player/ }));
    await user.type(within(dialog).getByLabelText('Note'), 'Screenshot shows 2-3');
    await user.click(within(dialog).getByRole('button', { name: 'CONFIRM DECISION' }));

    expect(await findToast('Dispute resolved')).toHaveTextContent('awarded to ace_player');
    expect(postsTo(fetchMock, '/api/admin/disputes/21/resolve')).toEqual([
      { outcome: 'acceptor', note: 'Screenshot shows 2-3' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('can refund both players', async () => {
    const fetchMock = serve({ '/api/admin/disputes': [makeDispute()] }, () =>
      jsonResponse(200, makeDispute({ status: 'cancelled', winnerId: null })),
    );
    const user = await openTab('DISPUTES');
    const list = await screen.findByRole('list', { name: 'Disputes' });

    await user.click(within(list).getByRole('button', { name: 'RESOLVE' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve Dispute' });
    await user.click(within(dialog).getByRole('radio', { name: /Refund both players/ }));
    await user.type(within(dialog).getByLabelText('Note'), 'No evidence either way');
    await user.click(within(dialog).getByRole('button', { name: 'CONFIRM DECISION' }));

    expect(await findToast('Dispute resolved')).toHaveTextContent('both stakes were refunded');
    expect(postsTo(fetchMock, '/api/admin/disputes/21/resolve')).toEqual([
      { outcome: 'refund', note: 'No evidence either way' },
    ]);
  });
});

describe('disputed tournament matches in the disputes queue', () => {
  const tournamentDispute = (): AdminTournamentDispute => ({
    tournamentId: 7,
    game: 'Tekken 8',
    console: 'PlayStation',
    rounds: 3,
    matchId: 41,
    round: 2,
    playerA: { id: 1, username: 'ace_player' },
    playerB: { id: 2, username: 'rival' },
    scoreA: 3,
    scoreB: 1,
    reportedBy: 1,
    reportedAt: '2025-03-14T12:00:00.000Z',
    noShowClaimedBy: null,
    disputeReason: 'I won 3–2',
    screenshotUrl: 'https://example.com/final.png',
    notes: null,
    evidence: [
      {
        id: 5,
        userId: 2,
        username: 'rival',
        statement: 'The replay shows it.',
        file: null,
        createdAt: '2025-03-14T12:05:00.000Z',
      },
    ],
  });
  const decided: TournamentDetail = {
    id: 7,
    game: 'Tekken 8',
    console: 'PlayStation',
    entryFee: 3,
    size: 8,
    startsAt: '2025-03-14T11:00:00.000Z',
    status: 'live',
    allowByes: false,
    prizeSplit: [70, 30],
    entrants: 8,
    placesLeft: 0,
    prizePool: 22.8,
    joined: false,
    seed: 'ab',
    winnerId: null,
    rounds: 3,
    entries: [],
    matches: [],
  };

  it('labels each as a tournament match, links to its tournament, and decides it through the tournament route', async () => {
    const fetchMock = serve(
      { '/api/admin/disputes': [], '/api/admin/tournament-disputes': [tournamentDispute()] },
      () => jsonResponse(200, decided),
    );
    const user = await openTab('DISPUTES');

    const list = await screen.findByRole('list', { name: 'Disputed tournament matches' });
    const [row] = within(list).getAllByRole('article');
    expect(row).toHaveTextContent('TOURNAMENT MATCH');
    expect(row).toHaveTextContent('Tournament #7 · Semi-finals');
    expect(row).toHaveTextContent('I won 3–2');
    expect(within(row!).getByRole('region', { name: 'Evidence from rival' })).toHaveTextContent(
      'The replay shows it.',
    );
    expect(within(row!).getByRole('link', { name: 'Open tournament #7' })).toHaveAttribute(
      'href',
      '/tournaments/7',
    );
    expect(screen.getByText('NO DISPUTED CHALLENGES')).toBeInTheDocument();

    await user.click(within(row!).getByRole('button', { name: 'DECIDE' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decide Tournament Match' });
    await user.click(within(dialog).getByRole('button', { name: 'rival GOES ON' }));
    expect(await findToast('Dispute decided')).toHaveTextContent('rival goes on');
    expect(postsTo(fetchMock, '/api/admin/tournaments/7/matches/41/resolve')).toEqual([
      { winnerId: 2 },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows nothing of tournaments while none is disputed', async () => {
    serve({ '/api/admin/disputes': [makeDispute()] });
    await openTab('DISPUTES');
    expect(await screen.findByRole('list', { name: 'Disputes' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Tournament disputes' })).not.toBeInTheDocument();
  });
});

describe('payouts queue', () => {
  it('shows pending payouts by default and completes one with a note', async () => {
    const fetchMock = serve({ '/api/admin/payouts': [makeAdminPayout()] }, () =>
      jsonResponse(200, makeAdminPayout({ status: 'completed' })),
    );
    const user = await openTab('PAYOUTS');

    const row = await screen.findByRole('article', { name: 'ace_player' });
    expect(row).toHaveTextContent('PROCESSING');
    expect(row).toHaveTextContent('$15.00');
    expect(row).toHaveTextContent('BTC bc1qexampleaddress');
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('status=pending'))).toBe(
      true,
    );

    await user.click(within(row).getByRole('button', { name: 'COMPLETE' }));
    const dialog = await screen.findByRole('dialog', { name: 'Complete Payout' });
    await user.type(within(dialog).getByLabelText('Transaction ID or note (optional)'), 'tx 0xabc');
    await user.click(within(dialog).getByRole('button', { name: 'MARK AS SENT' }));

    expect(await findToast('Payout completed')).toHaveTextContent('$15.00 to ace_player');
    expect(postsTo(fetchMock, '/api/admin/payouts/5/complete')).toEqual([{ note: 'tx 0xabc' }]);
  });

  it('approves & sends a payout held for review, and offers no hand decision once it is sent', async () => {
    const held = makeAdminPayout({
      stage: 'review',
      stageReason: 'over $500',
      amount: 600,
      currency: 'usdttrc20',
      address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
    });
    const sending = makeAdminPayout({
      id: 7,
      username: 'fast_player',
      stage: 'sent',
      stageReason: null,
      currency: 'usdttrc20',
      address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
      coinAmount: '20',
      txHash: 'ab'.repeat(32),
    });
    const fetchMock = serve(
      {
        '/api/admin/payouts': [held, sending],
        '/api/admin/payouts/balances': {
          provider: 'sandbox',
          balances: [
            { currency: 'usdttrc20', amount: '5', pending: '0', queuedCount: 1, short: true },
          ],
        },
      },
      () => jsonResponse(200, { ...held, stage: 'queued', stageReason: null }),
    );
    const user = await openTab('PAYOUTS');

    const balances = await screen.findByRole('region', { name: 'Payout provider balance' });
    expect(balances).toHaveTextContent('TEST MODE');
    expect(balances).toHaveTextContent('Too low for a queued payout');

    const row = await screen.findByRole('article', { name: 'ace_player' });
    expect(row).toHaveTextContent('Waiting for review: over $500');
    await user.click(within(row).getByRole('button', { name: 'APPROVE & SEND' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Send $600.00 to ace_player?' });
    await user.click(within(confirm).getByRole('button', { name: 'YES, SEND $600.00' }));
    expect(await findToast('Payout approved')).toHaveTextContent('$600.00 to ace_player');
    expect(postsTo(fetchMock, '/api/admin/payouts/5/approve')).toEqual([{}]);

    const sent = screen.getByRole('article', { name: 'fast_player' });
    expect(sent).toHaveTextContent('Sent');
    expect(within(sent).queryByRole('button')).not.toBeInTheDocument();
  });

  it('fails a payout only with a reason', async () => {
    const fetchMock = serve({ '/api/admin/payouts': [makeAdminPayout()] }, () =>
      jsonResponse(200, makeAdminPayout({ status: 'failed', failureReason: 'Bad address' })),
    );
    const user = await openTab('PAYOUTS');
    const row = await screen.findByRole('article', { name: 'ace_player' });

    await user.click(within(row).getByRole('button', { name: 'FAIL' }));
    const dialog = await screen.findByRole('dialog', { name: 'Fail Payout' });
    await user.click(within(dialog).getByRole('button', { name: 'MARK AS FAILED' }));
    expect(within(dialog).getByLabelText('Reason')).toHaveAccessibleDescription(
      expect.stringContaining(PAYOUT_MESSAGES.reasonRequired),
    );
    expect(postsTo(fetchMock, '/api/admin/payouts/5/fail')).toEqual([]);

    await user.type(within(dialog).getByLabelText('Reason'), 'Bad address');
    await user.click(within(dialog).getByRole('button', { name: 'MARK AS FAILED' }));

    expect(await findToast('Payout failed')).toHaveTextContent("back to ace_player's balance");
    expect(postsTo(fetchMock, '/api/admin/payouts/5/fail')).toEqual([{ reason: 'Bad address' }]);
  });

  it('toasts Error with the server message when the payout was already decided', async () => {
    serve({ '/api/admin/payouts': [makeAdminPayout()] }, () =>
      jsonResponse(409, { code: 'PAYOUT_NOT_PENDING', message: PAYOUT_MESSAGES.alreadyCompleted }),
    );
    const user = await openTab('PAYOUTS');
    const row = await screen.findByRole('article', { name: 'ace_player' });

    await user.click(within(row).getByRole('button', { name: 'COMPLETE' }));
    const dialog = await screen.findByRole('dialog', { name: 'Complete Payout' });
    await user.click(within(dialog).getByRole('button', { name: 'MARK AS SENT' }));

    expect(await findToast('Error')).toHaveTextContent(`409: ${PAYOUT_MESSAGES.alreadyCompleted}`);
  });
});

describe('ID verification queue', () => {
  it('shows an image licence inline, and approves it', async () => {
    const verification = makeVerification();
    const fetchMock = serve({ '/api/admin/verifications': [verification] }, () =>
      jsonResponse(200, makeVerification({ status: 'approved' })),
    );
    const user = await openTab('ID VERIFICATION');
    const row = await screen.findByRole('article', { name: 'ace_player' });
    expect(row).toHaveTextContent('PENDING');
    expect(row).toHaveTextContent('PNG, 240 KB');

    await user.click(within(row).getByRole('button', { name: 'REVIEW' }));
    const dialog = await screen.findByRole('dialog', { name: "Driver's License: ace_player" });
    expect(within(dialog).getByRole('img')).toHaveAttribute('src', verification.fileUrl);
    expect(within(dialog).getByRole('link', { name: /Open file/ })).toHaveAttribute(
      'href',
      verification.fileUrl,
    );
    await user.click(within(dialog).getByRole('button', { name: 'APPROVE' }));

    expect(await findToast('License approved')).toHaveTextContent('ace_player is now verified');
    expect(postsTo(fetchMock, '/api/admin/verifications/31/approve')).toEqual([{}]);
  });

  it('links a PDF instead of showing it, and rejects only with a note', async () => {
    const fetchMock = serve(
      { '/api/admin/verifications': [makeVerification({ contentType: 'application/pdf' })] },
      () => jsonResponse(200, makeVerification({ status: 'rejected', note: 'Expired' })),
    );
    const user = await openTab('ID VERIFICATION');
    const row = await screen.findByRole('article', { name: 'ace_player' });

    await user.click(within(row).getByRole('button', { name: 'REVIEW' }));
    const dialog = await screen.findByRole('dialog', { name: "Driver's License: ace_player" });
    expect(within(dialog).queryByRole('img')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: /Open file \(PDF/ })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'REJECT' }));
    expect(within(dialog).getByLabelText('Note')).toHaveAccessibleDescription(
      expect.stringContaining(ADMIN_MESSAGES.rejectionNoteRequired),
    );
    expect(postsTo(fetchMock, '/api/admin/verifications/31/reject')).toEqual([]);

    await user.type(within(dialog).getByLabelText('Note'), 'Expired');
    await user.click(within(dialog).getByRole('button', { name: 'REJECT' }));
    expect(await findToast('License rejected')).toBeInTheDocument();
    expect(postsTo(fetchMock, '/api/admin/verifications/31/reject')).toEqual([{ note: 'Expired' }]);
  });
});

describe('audit log', () => {
  it('shows who did what, when and why, with amounts in dollars, and pages back', async () => {
    const fetchMock = stubFetch(({ url }) => {
      const { path, query } = parseRequestUrl(url);
      if (path === '/api/user') return jsonResponse(200, OPERATOR);
      if (path === '/api/admin/ledger-health') return jsonResponse(200, HEALTHY);
      if (path === '/api/admin/audit') {
        return query.before
          ? jsonResponse(200, {
              items: [
                makeAuditEntry({
                  id: 40,
                  action: 'payout.fail',
                  target: { type: 'payout', id: '5' },
                  details: { userId: 1, amountCents: '1500' },
                  reason: 'Bad address',
                }),
              ],
              nextBefore: null,
            })
          : jsonResponse(200, { items: [makeAuditEntry()], nextBefore: 41 });
      }
      return jsonResponse(200, []);
    });
    const user = await openTab('AUDIT LOG');

    const list = await screen.findByRole('list', { name: 'Audit log' });
    const entry = within(list).getByRole('article', { name: 'Balance adjusted' });
    expect(entry).toHaveTextContent('by operator');
    expect(entry).toHaveTextContent('user #1');
    expect(entry).toHaveTextContent('ReasonGoodwill correction');
    expect(entry).toHaveTextContent('Amount-$5.00');
    expect(entry).toHaveTextContent('Balance after$12.00');

    await user.click(screen.getByRole('button', { name: 'Load older entries' }));
    const older = await within(list).findByRole('article', { name: 'Payout failed' });
    expect(older).toHaveTextContent('payout #5');
    expect(older).toHaveTextContent('User ID1');
    expect(older).toHaveTextContent('Amount$15.00');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/admin/audit?limit=50&before=41',
      expect.anything(),
    );
  });
});

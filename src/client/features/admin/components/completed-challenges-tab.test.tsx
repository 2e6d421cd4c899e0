import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { OPERATOR } from '#client/test-utils/admin.ts';
import { makeChallenge, makePlayer, parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';

// The route is a lazily loaded chunk; loading it once here keeps the first test's wait short.
beforeAll(async () => {
  await import('#client/app/routes/admin.tsx');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const UPLOAD_URL = '/api/uploads/0b6f7c1e-3a52-4d7a-9c1e-7f1f2a3b4c5d';

const SETTLED = makeChallenge({
  id: 14,
  game: 'Tekken 8',
  status: 'completed',
  amount: 25,
  prize: 50,
  deduction: 2.5,
  mode: '1v1',
  platform: 'PSN',
  acceptorId: 1,
  winnerId: 2,
  creatorScore: 3,
  acceptorScore: 1,
  winnerScreenshot: UPLOAD_URL,
  notes: 'Close match, GG',
  createdAt: '2025-03-14T12:00:00.000Z',
  completedAt: '2025-03-14T14:30:00.000Z',
  creator: makePlayer({ id: 2, username: 'rival', email: 'rival@example.com', balance: 72.5 }),
  acceptor: makePlayer({ id: 1, username: 'ace_player', email: null, balance: 0 }),
});

function serve(challenges: ChallengeView[]) {
  return stubFetch(({ url }) => {
    const { path } = parseRequestUrl(url);
    if (path === '/api/user') return jsonResponse(200, OPERATOR);
    if (path === '/api/admin/challenges') return jsonResponse(200, challenges);
    if (path === '/api/admin/ledger-health') {
      return jsonResponse(200, { ok: true, problems: [], checkedAt: '2025-03-14T12:00:00Z' });
    }
    return jsonResponse(200, []);
  });
}

async function openCompletedTab() {
  const user = userEvent.setup();
  renderApp('/admin');
  await user.click(await screen.findByRole('tab', { name: 'COMPLETED CHALLENGES' }));
  return {
    user,
    list: await screen.findByRole('list', { name: 'Completed challenges' }),
  };
}

describe('admin completed challenges', () => {
  it('shows game, prize, both players, scores, winner and a safe screenshot link', async () => {
    serve([
      SETTLED,
      makeChallenge({
        id: 13,
        game: 'Halo',
        status: 'completed',
        winnerId: 2,
        creatorScore: 5,
        acceptorScore: 4,
        winnerScreenshot: 'javascript:alert(1)',
        creator: makePlayer({ id: 2, username: '' }),
        acceptor: null,
      }),
    ]);
    const { list } = await openCompletedTab();

    const [tekken, halo] = within(list).getAllByRole('article');
    expect(tekken).toHaveAccessibleName('Tekken 8');
    expect(tekken).toHaveTextContent('$50.00');
    expect(tekken).toHaveTextContent('Creatorrival');
    expect(tekken).toHaveTextContent('Acceptorace_player');
    expect(tekken).toHaveTextContent('3 – 1');
    expect(tekken).toHaveTextContent('Winnerrival');
    expect(within(tekken!).getByRole('link', { name: /View screenshot/ })).toHaveAttribute(
      'href',
      UPLOAD_URL,
    );

    // Missing players read Unknown; a link that is not https is never made clickable.
    expect(halo).toHaveTextContent('CreatorUnknown');
    expect(halo).toHaveTextContent('AcceptorUnknown');
    expect(within(halo!).queryByRole('link')).not.toBeInTheDocument();
    expect(halo).toHaveTextContent('javascript:alert(1)');
  });

  it('View Details shows every field of both parties and the match, and the screenshot', async () => {
    serve([SETTLED]);
    const { user, list } = await openCompletedTab();

    await user.click(within(list).getByRole('button', { name: 'VIEW DETAILS' }));
    const dialog = await screen.findByRole('dialog', { name: 'Challenge #14' });

    const creator = within(dialog).getByRole('region', { name: 'Creator' });
    expect(creator).toHaveTextContent('rival');
    expect(creator).toHaveTextContent('ID2');
    expect(creator).toHaveTextContent('rival@example.com');
    expect(creator).toHaveTextContent('Balance$72.50');
    const acceptor = within(dialog).getByRole('region', { name: 'Acceptor' });
    expect(acceptor).toHaveTextContent('ID1');
    expect(acceptor).toHaveTextContent('EmailNot provided');
    expect(acceptor).toHaveTextContent('Balance$0.00');

    for (const text of [
      'GameTekken 8',
      'Mode1v1',
      'PlatformPSN',
      'Prize$50.00',
      'Amount$25.00',
      'Fee$2.50',
      'StatusCOMPLETED',
      'Winner ID2',
      'Creator Score3',
      'Acceptor Score1',
      'Submission NotesClose match, GG',
    ]) {
      expect(dialog).toHaveTextContent(text);
    }
    expect(dialog).toHaveTextContent(/Created\s*Mar 14, 2025/);
    expect(dialog).toHaveTextContent(/Finalized\s*Mar 14, 2025/);

    const image = within(dialog).getByRole('img', { name: 'Result screenshot of challenge #14' });
    expect(image).toHaveAttribute('src', UPLOAD_URL);
    fireEvent.error(image);
    expect(within(dialog).getByText('Image could not be loaded')).toBeInTheDocument();
    expect(within(dialog).queryByRole('img')).not.toBeInTheDocument();
  });

  it('does not load a screenshot that is not https', async () => {
    serve([{ ...SETTLED, winnerScreenshot: 'http://tracker.example/pixel.png' }]);
    const { user, list } = await openCompletedTab();

    await user.click(within(list).getByRole('button', { name: 'VIEW DETAILS' }));
    const dialog = await screen.findByRole('dialog', { name: 'Challenge #14' });
    expect(within(dialog).queryByRole('img')).not.toBeInTheDocument();
    expect(dialog).toHaveTextContent('Not shown: the link is not https.');
  });

  it('says NO COMPLETED CHALLENGES when there are none', async () => {
    serve([]);
    const user = userEvent.setup();
    renderApp('/admin');
    await user.click(await screen.findByRole('tab', { name: 'COMPLETED CHALLENGES' }));
    expect(await screen.findByText('NO COMPLETED CHALLENGES')).toBeInTheDocument();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { Transaction } from '#shared/contracts/wallet.ts';
import {
  makeAcceptedChallenge,
  makeChallenge,
  makeCounts,
  parseRequestUrl,
} from '#client/test-utils/challenges.ts';
import { jsonResponse, makeUser, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function transaction(overrides: Partial<Transaction>): Transaction {
  return {
    id: 1,
    createdAt: '2025-03-14T12:00:00.000Z',
    kind: 'deposit',
    amount: 50,
    balanceAfter: 50,
    reference: null,
    memo: null,
    ...overrides,
  };
}

interface ProfileServer {
  counts?: Response;
  created?: Response;
  transactions?: (before: string | undefined) => Response;
}

function serve({ counts, created, transactions }: ProfileServer = {}) {
  return stubFetch(({ url }) => {
    const { path, query } = parseRequestUrl(url);
    if (path === '/api/user') return jsonResponse(200, makeUser({ id: 1 }));
    if (path === '/api/challenges/counts') {
      return counts ?? jsonResponse(200, makeCounts({ created: 3, accepted: 1 }));
    }
    if (path === '/api/challenges' && query.role === 'created') {
      return created ?? jsonResponse(200, [makeChallenge({ id: 3, creatorId: 1, game: 'Halo' })]);
    }
    if (path === '/api/challenges' && query.role === 'accepted') {
      return jsonResponse(200, [makeAcceptedChallenge({ game: 'Tekken 8' })]);
    }
    if (path === '/api/transactions') {
      return transactions
        ? transactions(query.before)
        : jsonResponse(200, { items: [], nextBefore: null });
    }
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

const ERROR_TITLE = 'ERROR LOADING CHALLENGE DATA';
const ERROR_HINT = 'PLEASE REFRESH THE PAGE TO TRY AGAIN';

describe('profile: my challenges', () => {
  it('has Created (n) and Accepted (n) tabs with the player’s challenges', async () => {
    serve();
    const user = userEvent.setup();
    renderApp('/profile');

    expect(await screen.findByRole('tab', { name: 'Created (3)' })).toBeInTheDocument();
    const created = await screen.findByRole('list', { name: 'Challenges you created' });
    expect(within(created).getByRole('article', { name: 'Halo' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Accepted (1)' }));
    const accepted = await screen.findByRole('list', { name: 'Challenges you accepted' });
    expect(within(accepted).getByRole('article', { name: 'Tekken 8' })).toBeInTheDocument();
  });

  it('shows the SPEC error when the challenge data cannot be loaded', async () => {
    serve({ created: jsonResponse(500, { code: 'INTERNAL', message: 'Something went wrong' }) });
    renderApp('/profile');

    expect(await screen.findByText(ERROR_TITLE)).toBeInTheDocument();
    expect(screen.getByText(ERROR_HINT)).toBeInTheDocument();
  });

  it('shows the SPEC error when the counts cannot be loaded', async () => {
    serve({ counts: new Response('boom', { status: 503 }) });
    renderApp('/profile');

    expect(await screen.findByText(ERROR_TITLE)).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: /Created/ })).not.toBeInTheDocument();
  });
});

describe('profile: transactions', () => {
  it('says NO TRANSACTIONS YET for a new wallet', async () => {
    serve();
    renderApp('/profile');
    expect(await screen.findByText('NO TRANSACTIONS YET')).toBeInTheDocument();
  });

  it('lists movements in words with signed amounts and balances, then loads older ones', async () => {
    const fetchMock = serve({
      transactions: (before) =>
        before
          ? jsonResponse(200, {
              items: [transaction({ id: 1, kind: 'deposit', amount: 50, balanceAfter: 50 })],
              nextBefore: null,
            })
          : jsonResponse(200, {
              items: [
                transaction({
                  id: 3,
                  kind: 'settlement',
                  amount: 47.5,
                  balanceAfter: 72.5,
                  reference: { type: 'challenge', id: '11' },
                }),
                transaction({ id: 2, kind: 'stake', amount: -25, balanceAfter: 25 }),
              ],
              nextBefore: 2,
            }),
    });
    const user = userEvent.setup();
    renderApp('/profile');

    const list = await screen.findByRole('list', { name: 'Transactions' });
    const [winnings, stake] = within(list).getAllByRole('listitem');
    expect(winnings).toHaveTextContent('Challenge winnings');
    expect(winnings).toHaveTextContent('+$47.50');
    expect(winnings).toHaveTextContent('Balance $72.50');
    expect(within(winnings!).getByRole('link', { name: 'Challenge #11' })).toHaveAttribute(
      'href',
      '/challenges/11',
    );
    expect(stake).toHaveTextContent('Challenge stake');
    expect(stake).toHaveTextContent('-$25.00');

    await user.click(screen.getByRole('button', { name: 'Load more' }));

    expect(await within(list).findByText('Deposit')).toBeInTheDocument();
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/transactions?limit=20&before=2',
      expect.anything(),
    );
  });
});

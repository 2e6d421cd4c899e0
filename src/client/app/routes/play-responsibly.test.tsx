import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { PublicUser } from '#shared/contracts/auth.ts';
import type { LimitView, ResponsibleGaming } from '#shared/contracts/responsible-gaming.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import {
  jsonResponse,
  makeUser,
  renderApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';

beforeAll(async () => {
  await import('#client/app/routes/play-responsibly.tsx');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const NONE: LimitView = { amount: null, used: 0, left: null, pending: null };

function makeRules(overrides: Partial<ResponsibleGaming> = {}): ResponsibleGaming {
  return {
    limits: { daily: NONE, weekly: NONE, monthly: NONE },
    playBreak: null,
    history: [],
    ...overrides,
  };
}

function serve(options: {
  user?: PublicUser | null;
  rules?: ResponsibleGaming;
  onChange?: FetchHandler;
}) {
  const { user = makeUser(), rules = makeRules(), onChange } = options;
  return stubFetch((request) => {
    const { path } = parseRequestUrl(request.url);
    if (path === '/api/user') {
      return user ? jsonResponse(200, user) : jsonResponse(401, { code: 'UNAUTHENTICATED' });
    }
    if (request.method === 'GET' && path === '/api/responsible-gaming') {
      return jsonResponse(200, rules);
    }
    if (onChange && path.startsWith('/api/responsible-gaming/')) return onChange(request);
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

const sent = (fetchMock: ReturnType<typeof stubFetch>, path: string) =>
  fetchMock.mock.calls
    .filter(([input]) => String(input) === path)
    .map(([, init]) => ({ method: init?.method, body: JSON.parse(String(init?.body)) as unknown }));

describe('the play responsibly page', () => {
  it('gives a visitor the helpline and a way to sign in, and no tools', async () => {
    serve({ user: null });
    renderApp('/play-responsibly');
    const call = await screen.findByRole('link', { name: 'Call 1-800-GAMBLER' });
    expect(call).toHaveAttribute('href', 'tel:+18004262537');
    expect(screen.getByRole('link', { name: 'SIGN IN' })).toHaveAttribute('href', '/auth');
    expect(screen.queryByRole('button', { name: 'SAVE LIMITS' })).not.toBeInTheDocument();
  });

  it('shows each limit with what is left and a raise still waiting', async () => {
    serve({
      rules: makeRules({
        limits: {
          daily: {
            amount: 50,
            used: 40,
            left: 10,
            pending: { amount: 100, at: '2031-05-02T12:00:00.000Z' },
          },
          weekly: NONE,
          monthly: { amount: 500, used: 40, left: 460, pending: null },
        },
      }),
    });
    renderApp('/play-responsibly');
    const limits = await screen.findByRole('region', { name: 'Deposit limits' });
    expect(within(limits).getByText('$10.00 left')).toBeInTheDocument();
    expect(within(limits).getByText('$460.00 left')).toBeInTheDocument();
    expect(within(limits).getByText('No limit')).toBeInTheDocument();
    expect(within(limits).getByText(/^Rises to \$100\.00 on /)).toBeInTheDocument();
    expect(within(limits).getByLabelText('Daily limit ($)')).toHaveValue('50.00');
  });

  it('sends only the limits that change, a blank one as none, and shows the answer', async () => {
    const answer = makeRules({
      limits: {
        daily: { amount: 25, used: 0, left: 25, pending: null },
        weekly: NONE,
        monthly: NONE,
      },
    });
    const fetchMock = serve({
      rules: makeRules({
        limits: {
          daily: NONE,
          weekly: { amount: 200, used: 0, left: 200, pending: null },
          monthly: { amount: 900, used: 0, left: 900, pending: null },
        },
      }),
      onChange: () => jsonResponse(200, answer),
    });
    const user = userEvent.setup();
    renderApp('/play-responsibly');
    const limits = await screen.findByRole('region', { name: 'Deposit limits' });
    await user.type(within(limits).getByLabelText('Daily limit ($)'), '25');
    await user.clear(within(limits).getByLabelText('Weekly limit ($)'));
    await user.click(within(limits).getByRole('button', { name: 'SAVE LIMITS' }));

    await findToast('LIMITS SAVED');
    expect(sent(fetchMock, '/api/responsible-gaming/limits')).toEqual([
      { method: 'PUT', body: { daily: '25', weekly: null } },
    ]);
    // The card is drawn afresh from the answer (its fields then show the limits in force).
    const updated = await screen.findByRole('region', { name: 'Deposit limits' });
    expect(await within(updated).findByText('$25.00 left')).toBeInTheDocument();
    expect(within(updated).getByLabelText('Weekly limit ($)')).toHaveValue('');
  });

  it('leaves a waiting raise alone when another limit is saved', async () => {
    const waiting = makeRules({
      limits: {
        daily: {
          amount: 50,
          used: 0,
          left: 50,
          pending: { amount: 100, at: '2031-05-02T12:00:00.000Z' },
        },
        weekly: NONE,
        monthly: NONE,
      },
    });
    const fetchMock = serve({ rules: waiting, onChange: () => jsonResponse(200, waiting) });
    const user = userEvent.setup();
    renderApp('/play-responsibly');
    const limits = await screen.findByRole('region', { name: 'Deposit limits' });
    await user.type(within(limits).getByLabelText('Weekly limit ($)'), '300');
    await user.click(within(limits).getByRole('button', { name: 'SAVE LIMITS' }));
    await findToast('LIMITS SAVED');
    expect(sent(fetchMock, '/api/responsible-gaming/limits')).toEqual([
      { method: 'PUT', body: { weekly: '300' } },
    ]);
  });

  it('says what is wrong before sending: a bad amount, or nothing changed', async () => {
    const fetchMock = serve({});
    const user = userEvent.setup();
    renderApp('/play-responsibly');
    const limits = await screen.findByRole('region', { name: 'Deposit limits' });
    await user.click(within(limits).getByRole('button', { name: 'SAVE LIMITS' }));
    expect(within(limits).getByRole('alert')).toHaveTextContent('Please change at least one limit');
    await user.type(within(limits).getByLabelText('Monthly limit ($)'), '0');
    await user.click(within(limits).getByRole('button', { name: 'SAVE LIMITS' }));
    expect(within(limits).getByLabelText('Monthly limit ($)')).toHaveAccessibleDescription(
      /A limit must be greater than \$0/,
    );
    expect(sent(fetchMock, '/api/responsible-gaming/limits')).toEqual([]);
  });

  it('confirms a time-out naming its end before it starts, and shows the server refusal', async () => {
    let refuse = true;
    const fetchMock = serve({
      onChange: () =>
        refuse
          ? jsonResponse(409, {
              code: 'CONFLICT',
              message: 'You already have a break until 2031-06-01 12:00 UTC.',
            })
          : jsonResponse(
              200,
              makeRules({ playBreak: { kind: 'time_out', until: '2031-05-08T12:00:00.000Z' } }),
            ),
    });
    const user = userEvent.setup();
    renderApp('/play-responsibly');
    await user.selectOptions(await screen.findByLabelText('Time-out length'), '7 days');
    await user.click(screen.getByRole('button', { name: 'TAKE A TIME-OUT' }));
    const confirm = await screen.findByRole('alertdialog', {
      name: 'Take a time-out for 7 days?',
    });
    expect(within(confirm).getByText(/Nobody, not you and not our support/)).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'YES, START MY TIME-OUT' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(
      'You already have a break until 2031-06-01 12:00 UTC.',
    );

    refuse = false;
    await user.click(within(confirm).getByRole('button', { name: 'YES, START MY TIME-OUT' }));
    await findToast('TIME-OUT STARTED');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(sent(fetchMock, '/api/responsible-gaming/time-out').at(-1)).toEqual({
      method: 'POST',
      body: { days: 7 },
    });
    expect(
      await screen.findByText(/You are taking a time-out until 2031-05-08 12:00 UTC/),
    ).toBeInTheDocument();
  });

  it('shows a banner on every page during a break', async () => {
    serve({
      user: makeUser({ playBreak: { kind: 'self_exclusion', until: '2032-02-29T10:00:00.000Z' } }),
    });
    renderApp('/play-responsibly');
    const banner = await screen.findByRole('region', { name: 'Self-exclusion' });
    expect(banner).toHaveTextContent(
      'You have excluded yourself from cash play until 2032-02-29 10:00 UTC',
    );
  });
});

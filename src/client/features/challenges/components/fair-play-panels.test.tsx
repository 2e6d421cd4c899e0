import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ChallengeView, Evidence } from '#shared/contracts/challenges.ts';
import { makeAcceptedChallenge } from '#client/test-utils/challenges.ts';
import { jsonResponse, renderInApp, stubFetch } from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';
import { ChallengeDetails } from './challenge-details.tsx';
import { timeLeft } from './fair-play-panels.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

// Player 1 (`ace_player`) accepted player 2's (`rival`) challenge.
const ME = 1;
const RULES = { resultReviewHours: 24, noShowMinutes: 30, matchTimeLimitHours: 24 };
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

function underReview(overrides: Partial<ChallengeView> = {}): ChallengeView {
  return makeAcceptedChallenge({
    status: 'completed',
    winnerId: 2,
    creatorScore: 3,
    acceptorScore: 1,
    submittedBy: 2,
    winnerScreenshot: 'https://example.com/s.png',
    completedAt: new Date().toISOString(),
    reviewEndsAt: inHours(23.5),
    disputableUntil: inHours(23.5),
    ...overrides,
  });
}

describe('a result under review', () => {
  it('tells the reporter whom they wait for and how long', () => {
    stubFetch(() => jsonResponse(200, RULES));
    renderInApp(<ChallengeDetails challenge={underReview({ submittedBy: ME })} viewerId={ME} />);
    expect(screen.getByText('Waiting for rival to confirm · 23 h left')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /CONFIRM RESULT/ })).not.toBeInTheDocument();
  });

  it('lets the other player confirm it, which is posted and toasted', async () => {
    const confirmed = underReview({ reviewEndsAt: null, releasedAt: new Date().toISOString() });
    const fetch = stubFetch(({ url }) =>
      url.endsWith('/confirm') ? jsonResponse(200, confirmed) : jsonResponse(200, RULES),
    );
    renderInApp(<ChallengeDetails challenge={underReview()} viewerId={ME} />);
    expect(screen.getByText(/rival reported 3–1/)).toHaveTextContent('23 h left');
    expect(screen.getByRole('button', { name: /DISPUTE RESULT/ })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /CONFIRM RESULT/ }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Confirm this result?' });
    expect(confirm).toHaveTextContent(/^Confirm this result\?You (won|lost): /);
    expect(fetch).not.toHaveBeenCalledWith('/api/challenges/11/confirm', expect.anything());
    await userEvent.click(within(confirm).getByRole('button', { name: 'YES, CONFIRM IT' }));
    await findToast('Result confirmed');
    expect(fetch).toHaveBeenCalledWith('/api/challenges/11/confirm', expect.anything());
  });

  it('counts down in hours, then minutes', () => {
    const now = new Date('2031-01-01T00:00:00Z');
    expect(timeLeft('2031-01-01T23:30:00Z', now)).toBe('23 h left');
    expect(timeLeft('2031-01-01T00:45:30Z', now)).toBe('45 min left');
    expect(timeLeft('2031-01-01T00:00:30Z', now)).toBe('less than a minute left');
  });
});

describe('an accepted match', () => {
  it('offers REQUEST CANCEL, and REPORT NO-SHOW only after the waiting time', async () => {
    const fetch = stubFetch(({ url }) =>
      url.endsWith('/cancel')
        ? jsonResponse(200, makeAcceptedChallenge({ cancelRequestedBy: [ME] }))
        : jsonResponse(200, RULES),
    );
    const fresh = makeAcceptedChallenge({ acceptedAt: new Date().toISOString() });
    const { unmount } = renderInApp(<ChallengeDetails challenge={fresh} viewerId={ME} />);
    await screen.findByText(/you can report a no-show from/);
    expect(screen.queryByRole('button', { name: /REPORT NO-SHOW/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /REQUEST CANCEL/ }));
    await findToast('Cancel requested');
    expect(fetch).toHaveBeenCalledWith('/api/challenges/11/cancel', expect.anything());
    unmount();

    const late = makeAcceptedChallenge({ acceptedAt: inHours(-1), cancelRequestedBy: [2] });
    renderInApp(<ChallengeDetails challenge={late} viewerId={ME} />);
    expect(await screen.findByRole('button', { name: /REPORT NO-SHOW/ })).toBeInTheDocument();
    expect(screen.getByText(/rival asked to call this match off/)).toBeInTheDocument();
  });
});

describe('a disputed result', () => {
  const evidence: Evidence[] = [
    {
      id: 1,
      userId: 2,
      username: 'rival',
      statement: 'I won 3–1, fair and square.',
      file: null,
      createdAt: new Date().toISOString(),
    },
    {
      id: 2,
      userId: ME,
      username: 'ace_player',
      statement: null,
      file: { url: '/api/uploads/x', contentType: 'video/mp4', name: 'match.mp4' },
      createdAt: new Date().toISOString(),
    },
  ];

  it('shows both sides’ evidence and sends a statement and a file as multipart', async () => {
    let sent: FormData | undefined;
    const fetch = vi.fn((input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      if (init.method === 'POST') {
        sent = init.body as FormData;
        return Promise.resolve(jsonResponse(201, { ...evidence[0], id: 3, userId: ME }));
      }
      return Promise.resolve(
        url.endsWith('/evidence') ? jsonResponse(200, evidence) : jsonResponse(200, RULES),
      );
    });
    vi.stubGlobal('fetch', fetch);
    renderInApp(
      <ChallengeDetails
        challenge={underReview({ status: 'disputed', reviewEndsAt: null })}
        viewerId={ME}
      />,
    );
    const rivalSide = await screen.findByRole('region', { name: 'Evidence from rival' });
    expect(within(rivalSide).getByText('I won 3–1, fair and square.')).toBeInTheDocument();
    const mySide = screen.getByRole('region', { name: 'Evidence from ace_player' });
    expect(
      within(mySide).getByRole('link', { name: /Download the video \(match.mp4\)/ }),
    ).toHaveAttribute('href', '/api/uploads/x');

    await userEvent.click(screen.getByRole('button', { name: /ADD EVIDENCE/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Evidence' });
    await userEvent.click(within(dialog).getByRole('button', { name: /SEND EVIDENCE/ }));
    expect(within(dialog).getByText('Add a statement or a file')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Statement'), 'Lag in the second half');
    const file = new File([new Uint8Array(10)], 'proof.webm', { type: 'video/webm' });
    await userEvent.upload(within(dialog).getByLabelText('Picture or video (optional)'), file);
    await userEvent.click(within(dialog).getByRole('button', { name: /SEND EVIDENCE/ }));
    await findToast('Evidence added');
    expect(sent?.get('statement')).toBe('Lag in the second half');
    expect((sent?.get('file') as File).name).toBe('proof.webm');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { dollarNumberToCents } from '#shared/money.ts';
import { stakeMoneyLine } from '#shared/stake-terms.ts';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import {
  makeAcceptedChallenge,
  makeChallenge,
  makeCounts,
  makePlayer,
  parseRequestUrl,
} from '#client/test-utils/challenges.ts';
import { jsonResponse, makeUser, renderInApp, stubFetch } from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';
import { ChallengeCard } from './challenge-card.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const VIEWER_ID = 1;

function card() {
  return screen.getByRole('article', { name: 'EA FC 25' });
}

function actionNames(): string[] {
  const names = within(card())
    .queryAllByRole('button')
    .map((button) => button.textContent ?? '');
  const viewDetails = within(card()).queryByRole('link', { name: 'VIEW DETAILS' });
  return viewDetails ? [...names, 'VIEW DETAILS'] : names;
}

describe('challenge card', () => {
  it("offers ACCEPT CHALLENGE on someone else's open challenge, labelled AVAILABLE", () => {
    renderInApp(<ChallengeCard challenge={makeChallenge()} viewerId={VIEWER_ID} />);

    expect(within(card()).getByText('AVAILABLE')).toBeInTheDocument();
    expect(actionNames()).toEqual(['ACCEPT CHALLENGE']);
    expect(within(card()).getByText('$25.00')).toBeInTheDocument();
    expect(within(card()).getByText('rival')).toBeInTheDocument();
    expect(within(card()).getByText('RivalTag')).toBeInTheDocument();
    expect(within(card()).getByText('PlayStation')).toBeInTheDocument();
    // The creator's number reaches the two players only.
    expect(within(card()).getByText('Shown to your opponent')).toBeInTheDocument();
    expect(within(card()).getByRole('link', { name: 'EA FC 25' })).toHaveAttribute(
      'href',
      '/challenges/11',
    );
  });

  it('offers VIEW DETAILS and CANCEL CHALLENGE, not ACCEPT, on the viewer’s own open challenge', () => {
    renderInApp(
      <ChallengeCard
        challenge={makeChallenge({
          creatorId: VIEWER_ID,
          creator: makePlayer({ id: 1, username: 'ace' }),
        })}
        viewerId={VIEWER_ID}
      />,
    );

    expect(actionNames()).toEqual(['CANCEL CHALLENGE', 'VIEW DETAILS']);
    expect(within(card()).getByRole('link', { name: 'VIEW DETAILS' })).toHaveAttribute(
      'href',
      '/challenges/11',
    );
  });

  it('offers SUBMIT SCORES to a player of an accepted challenge, with both players shown', () => {
    renderInApp(<ChallengeCard challenge={makeAcceptedChallenge()} viewerId={VIEWER_ID} />);

    expect(within(card()).getByText('ACCEPTED')).toBeInTheDocument();
    expect(actionNames()).toEqual(['SUBMIT SCORES']);
    expect(within(card()).getByText('ace_player')).toBeInTheDocument();
    expect(within(card()).getByText('+1 555 987 6543')).toBeInTheDocument();
  });

  it('shows the opponent’s record in one line: the creator’s to anyone who may accept', () => {
    const creator = makePlayer({
      id: 2,
      username: 'rival',
      record: { played: 34, won: 24, lost: 10, disputesLost: 1 },
    });
    renderInApp(<ChallengeCard challenge={makeChallenge({ creator })} viewerId={VIEWER_ID} />);
    const record = within(card()).getByText('Opponent record');
    expect(record.nextElementSibling).toHaveTextContent('34 played · 71% won · 1 dispute lost');
  });

  it('says New player for an opponent with no result yet, and shows no record of one’s own', () => {
    renderInApp(<ChallengeCard challenge={makeAcceptedChallenge()} viewerId={2} />);
    expect(within(card()).getByText('Opponent record').nextElementSibling).toHaveTextContent(
      'New player',
    );
  });

  it('offers only VIEW DETAILS on an accepted challenge the viewer is not playing', () => {
    renderInApp(<ChallengeCard challenge={makeAcceptedChallenge()} viewerId={99} />);
    expect(actionNames()).toEqual(['VIEW DETAILS']);
  });

  it('names the WINNER of a completed challenge and offers VIEW DETAILS', () => {
    renderInApp(
      <ChallengeCard
        challenge={makeAcceptedChallenge({ status: 'completed', winnerId: 2 })}
        viewerId={VIEWER_ID}
      />,
    );

    expect(within(card()).getByText('COMPLETED')).toBeInTheDocument();
    const winner = within(card()).getByText('WINNER').closest('p');
    expect(winner).toHaveTextContent('WINNERrival');
    expect(actionNames()).toEqual(['VIEW DETAILS']);
  });

  it('shows no WINNER before completion', () => {
    renderInApp(<ChallengeCard challenge={makeAcceptedChallenge()} viewerId={VIEWER_ID} />);
    expect(within(card()).queryByText('WINNER')).not.toBeInTheDocument();
  });

  it('accepts the challenge and confirms with the SPEC toast', async () => {
    const fetchMock = stubFetch(({ method, url }) => {
      const { path } = parseRequestUrl(url);
      if (method === 'POST' && path === '/api/challenges/11/accept') {
        return jsonResponse(200, makeAcceptedChallenge());
      }
      if (path === '/api/user') return jsonResponse(200, makeUser());
      if (path === '/api/challenges/counts') return jsonResponse(200, makeCounts());
      return jsonResponse(200, []);
    });
    const user = userEvent.setup();
    renderInApp(<ChallengeCard challenge={makeChallenge()} viewerId={VIEWER_ID} />);

    await user.click(within(card()).getByRole('button', { name: 'ACCEPT CHALLENGE' }));
    // Nothing moves before the confirmation, which states the money.
    expect(fetchMock).not.toHaveBeenCalledWith('/api/challenges/11/accept', expect.anything());
    const confirm = await screen.findByRole('alertdialog', { name: 'Accept this challenge?' });
    expect(confirm).toHaveTextContent(stakeMoneyLine(dollarNumberToCents(makeChallenge().amount)));
    await user.click(within(confirm).getByRole('button', { name: /^YES, STAKE \$/ }));

    const toast = await findToast('Challenge accepted!');
    expect(toast).toHaveTextContent('Get ready to compete!');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/challenges/11/accept',
      expect.objectContaining({ method: 'POST' }),
    );
  });

  it('cancels only after the creator confirms', async () => {
    const fetchMock = stubFetch(({ method, url }) => {
      const { path } = parseRequestUrl(url);
      if (method === 'POST' && path === '/api/challenges/11/cancel') {
        return jsonResponse(200, makeChallenge({ creatorId: VIEWER_ID, status: 'cancelled' }));
      }
      return jsonResponse(200, []);
    });
    const user = userEvent.setup();
    renderInApp(
      <ChallengeCard challenge={makeChallenge({ creatorId: VIEWER_ID })} viewerId={VIEWER_ID} />,
    );

    await user.click(within(card()).getByRole('button', { name: 'CANCEL CHALLENGE' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Cancel this challenge?' });
    await user.click(within(confirm).getByRole('button', { name: 'KEEP CHALLENGE' }));
    expect(fetchMock).not.toHaveBeenCalledWith('/api/challenges/11/cancel', expect.anything());

    await user.click(within(card()).getByRole('button', { name: 'CANCEL CHALLENGE' }));
    await user.click(await screen.findByRole('button', { name: 'YES, CANCEL IT' }));

    expect(await findToast('Challenge cancelled')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/challenges/11/cancel',
      expect.objectContaining({ method: 'POST' }),
    );
  });
});

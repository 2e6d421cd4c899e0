import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { SubmitScoresResponse } from '#shared/contracts/challenges.ts';
import { makeAcceptedChallenge } from '#client/test-utils/challenges.ts';
import { ResultsModal } from './results-dialog.tsx';

afterEach(() => {
  vi.restoreAllMocks();
});

function showResults(result: SubmitScoresResponse, viewerId = 1) {
  render(
    <ResultsModal
      results={{
        challenge: makeAcceptedChallenge(),
        viewerId,
        creatorScore: 1,
        acceptorScore: 3,
        result,
      }}
      onClose={() => undefined}
    />,
  );
  return screen.getByRole('dialog', { name: 'CHALLENGE RESULTS SUBMITTED' });
}

/** The figure shown beside a label in the YOU WON block. */
function figure(modal: HTMLElement, label: string): string | null {
  return within(modal).getByText(label).nextElementSibling?.textContent ?? null;
}

const NEXT_STEPS = [
  'An admin reviews the scores and the screenshot.',
  'The winner is credited with the prize, minus the 5% fee.',
  'Both players are emailed the result.',
];

describe('results modal', () => {
  it('shows YOU WON with the prize, the fee and the new balance to 2 decimals', () => {
    const modal = showResults({
      status: 'completed',
      winner: { id: 1, prize: 1250, deduction: 62.5 },
      updatedWinnerInfo: { id: 1, balance: 1287.5 },
    });

    expect(within(modal).getByRole('heading', { name: 'YOU WON' })).toBeInTheDocument();
    expect(figure(modal, 'Prize')).toBe('$1,250.00');
    expect(figure(modal, 'Fee (5%)')).toBe('-$62.50');
    expect(figure(modal, 'New balance')).toBe('$1,287.50');
    expect(modal).toHaveTextContent('rival 1 – 3 ace_player');
  });

  it('leaves the fee line out when nothing was deducted', () => {
    const modal = showResults({
      status: 'completed',
      winner: { id: 1, prize: 2, deduction: 0 },
      updatedWinnerInfo: { id: 1, balance: 7 },
    });

    expect(figure(modal, 'Prize')).toBe('$2.00');
    expect(within(modal).queryByText('Fee (5%)')).not.toBeInTheDocument();
    expect(figure(modal, 'New balance')).toBe('$7.00');
  });

  it('tells the losing player who won, with no balance of theirs', () => {
    const modal = showResults({
      status: 'completed',
      winner: { id: 2, prize: 50, deduction: 2.5 },
      updatedWinnerInfo: { id: 2, balance: 147.5 },
    });

    expect(within(modal).queryByText('YOU WON')).not.toBeInTheDocument();
    expect(within(modal).getByRole('heading', { name: 'RIVAL WON THIS MATCH' })).toBeVisible();
    expect(modal).not.toHaveTextContent('$147.50');
  });

  it('says a disputed submission is under admin review, and nobody has won yet', () => {
    const modal = showResults({
      status: 'disputed',
      winner: { id: 1, prize: 50, deduction: 0 },
      updatedWinnerInfo: { id: 1, balance: 10 },
    });

    expect(within(modal).getByRole('heading', { name: 'UNDER ADMIN REVIEW' })).toBeVisible();
    expect(modal).toHaveTextContent('this result is under admin review');
    expect(within(modal).queryByText('YOU WON')).not.toBeInTheDocument();
  });

  it('lists the next steps: admin review, winner credited, both players emailed', () => {
    const modal = showResults({
      status: 'completed',
      winner: { id: 1, prize: 50, deduction: 2.5 },
      updatedWinnerInfo: { id: 1, balance: 60 },
    });

    const steps = within(within(modal).getByRole('list')).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual(NEXT_STEPS);
  });
});

import { Swords } from 'lucide-react';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { dollarNumberToCents } from '#shared/money.ts';
import { stakeMoneyLine } from '#shared/stake-terms.ts';
import { ConfirmMoneyButton } from '#client/components/confirm-money.tsx';
import { formatDollars } from '#client/lib/format.ts';
import { useAcceptChallenge } from '../api/accept-challenge.ts';

/** ACCEPT CHALLENGE, and a confirmation that states the stake and the win before it moves. */
export function AcceptChallengeButton({ challenge }: { challenge: ChallengeView }) {
  const accept = useAcceptChallenge();
  return (
    <ConfirmMoneyButton
      className="w-full"
      trigger={
        <>
          <Swords aria-hidden="true" />
          ACCEPT CHALLENGE
        </>
      }
      title="Accept this challenge?"
      confirmLabel={`YES, STAKE ${formatDollars(challenge.amount)}`}
      busyLabel="ACCEPTING..."
      busy={accept.isPending}
      onConfirm={() => accept.mutate(challenge.id)}
    >
      <p>
        {challenge.game} against {challenge.creator.username} on {challenge.console}.
      </p>
      <p className="font-semibold text-white">
        {stakeMoneyLine(dollarNumberToCents(challenge.amount))}
      </p>
    </ConfirmMoneyButton>
  );
}

import { Swords } from 'lucide-react';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { Button } from '#client/components/ui/button.tsx';
import { useAcceptChallenge } from '../api/accept-challenge.ts';

export function AcceptChallengeButton({ challenge }: { challenge: ChallengeView }) {
  const accept = useAcceptChallenge();
  return (
    // Marked busy rather than disabled while it is sent: a disabled button drops the keyboard
    // focus to the page body.
    <Button
      className="w-full aria-disabled:cursor-wait aria-disabled:opacity-50"
      aria-disabled={accept.isPending}
      onClick={() => {
        if (!accept.isPending) accept.mutate(challenge.id);
      }}
    >
      <Swords aria-hidden="true" />
      {accept.isPending ? 'ACCEPTING...' : 'ACCEPT CHALLENGE'}
    </Button>
  );
}

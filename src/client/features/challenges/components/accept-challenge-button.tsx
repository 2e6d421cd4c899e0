import { Swords } from 'lucide-react';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { Button } from '#client/components/ui/button.tsx';
import { useAcceptChallenge } from '../api/accept-challenge.ts';

export function AcceptChallengeButton({ challenge }: { challenge: ChallengeView }) {
  const accept = useAcceptChallenge();
  return (
    <Button
      className="w-full"
      disabled={accept.isPending}
      onClick={() => accept.mutate(challenge.id)}
    >
      <Swords aria-hidden="true" />
      {accept.isPending ? 'ACCEPTING...' : 'ACCEPT CHALLENGE'}
    </Button>
  );
}

import { Flag } from 'lucide-react';
import { disputeBodySchema, type ChallengeView } from '#shared/contracts/challenges.ts';
import { ReasonDialog } from '#client/components/reason-dialog.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { formatDateTime } from '#client/lib/format.ts';
import { useDisputeChallenge } from '../api/dispute-challenge.ts';

/** The player who did not submit the result may contest it until the dispute window closes. */
export function DisputeDialog({ challenge }: { challenge: ChallengeView }) {
  const dispute = useDisputeChallenge(challenge.id);
  return (
    <ReasonDialog
      trigger={
        <Button variant="outline" className="border-red-400/70 text-red-300 hover:bg-red-400/10">
          <Flag aria-hidden="true" />
          DISPUTE RESULT
        </Button>
      }
      title="Dispute Result"
      description={
        <>
          An admin will review the match, the scores and the screenshot.
          {challenge.disputableUntil &&
            ` You can dispute until ${formatDateTime(challenge.disputableUntil)}.`}
        </>
      }
      schema={disputeBodySchema}
      defaultValues={{ reason: '' }}
      fields={[{ name: 'reason', label: 'What went wrong?', rows: 4 }]}
      submit={{ label: 'SEND DISPUTE', pendingLabel: 'SENDING...', icon: Flag }}
      pending={dispute.isPending}
      onSubmit={(values, callbacks) => dispute.mutate(values, callbacks)}
    />
  );
}

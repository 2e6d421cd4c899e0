import { ShieldAlert } from 'lucide-react';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { reportPlayerBodySchema } from '#shared/contracts/reports.ts';
import { z } from '#shared/validation.ts';
import { ReasonDialog } from '#client/components/reason-dialog.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { useReportPlayer } from '../api/report-player.ts';

const reportFormSchema = z.object({ reason: reportPlayerBodySchema.shape.reason });

/**
 * A player of a challenge reports their opponent to the admins (docs/fair-play.md); the report
 * names this challenge, so the admin can look at it.
 */
export function ReportPlayerDialog({
  challenge,
  opponent,
}: {
  challenge: ChallengeView;
  opponent: string;
}) {
  const report = useReportPlayer();
  return (
    <ReasonDialog
      trigger={
        <Button variant="ghost" size="sm" className="text-red-300 hover:text-red-200">
          <ShieldAlert aria-hidden="true" />
          REPORT PLAYER
        </Button>
      }
      title={`Report ${opponent}`}
      description={`Tell the admins what ${opponent} did in challenge #${challenge.id}. An admin will look into it.`}
      schema={reportFormSchema}
      defaultValues={{ reason: '' }}
      fields={[
        {
          name: 'reason',
          label: 'What happened?',
          hint: 'Cheating, abuse, a fake screenshot… Be specific: an admin reads every report.',
          rows: 4,
        },
      ]}
      submit={{ label: 'SEND REPORT', pendingLabel: 'SENDING...', icon: ShieldAlert }}
      pending={report.isPending}
      onSubmit={({ reason }, callbacks) =>
        report.mutate({ username: opponent, reason, challengeId: challenge.id }, callbacks)
      }
    />
  );
}

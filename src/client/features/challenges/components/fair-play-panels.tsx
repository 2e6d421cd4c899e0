import { useEffect, useId, useRef, useState } from 'react';
import { CheckCircle2, FileUp, Hourglass, Scale, UserX, XCircle } from 'lucide-react';
import {
  EVIDENCE_MESSAGES,
  EVIDENCE_STATEMENT_MAX,
  EVIDENCE_VIDEO_BYTES_MAX,
  type ChallengeView,
  type Evidence,
} from '#shared/contracts/challenges.ts';
import { UPLOAD_BYTES_MAX, UPLOAD_MESSAGES } from '#shared/contracts/uploads.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#client/components/ui/dialog.tsx';
import { FieldError } from '#client/components/ui/field.tsx';
import { Label } from '#client/components/ui/label.tsx';
import { Textarea } from '#client/components/ui/textarea.tsx';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';
import { ConfirmMoneyButton } from '#client/components/confirm-money.tsx';
import { dollarNumberToCents, formatCents } from '#shared/money.ts';
import { stakeTerms, WINNER_FEE_PERCENT } from '#shared/stake-terms.ts';
import {
  useAddEvidence,
  useConfirmResult,
  useEvidence,
  useFairPlayRules,
  useReportNoShow,
  useRequestCancel,
} from '../api/fair-play.ts';
import { isParticipant } from '../lib/challenge-rules.ts';
import { DisputeDialog } from './dispute-dialog.tsx';
import { Notice } from './notice.tsx';

const MINUTE_MS = 60_000;

/** The time now, again every minute: enough for "23 h left". */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), MINUTE_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** "23 h left", "45 min left", or "less than a minute left". */
export function timeLeft(until: string, now: Date): string {
  const minutes = Math.floor((new Date(until).getTime() - now.getTime()) / MINUTE_MS);
  if (minutes >= 60) return `${Math.floor(minutes / 60)} h left`;
  if (minutes >= 1) return `${minutes} min left`;
  return 'less than a minute left';
}

function opponentName(challenge: ChallengeView, viewerId: number): string {
  return viewerId === challenge.creatorId
    ? (challenge.acceptor?.username ?? 'your opponent')
    : challenge.creator.username;
}

/** What confirming a reported result moves, for the player asked to confirm it. */
function resultMoneyLine(challenge: ChallengeView, viewerId: number): string {
  const win = formatCents(stakeTerms(dollarNumberToCents(challenge.amount)).winnerCreditCents);
  if (challenge.winnerId === viewerId) {
    return `You won: ${win} reaches your balance, after the ${WINNER_FEE_PERCENT} fee.`;
  }
  return (
    `You lost: your ${formatDollars(challenge.amount)} stake goes to ` +
    `${opponentName(challenge, viewerId)}, who receives ${win} after the ${WINNER_FEE_PERCENT} fee.`
  );
}

/**
 * A reported result while its credit is held (docs/fair-play.md): the reporter waits for the
 * opponent; the opponent confirms it or disputes it before the review ends.
 */
export function ReviewPanel({
  challenge,
  viewerId,
}: {
  challenge: ChallengeView;
  viewerId: number;
}) {
  const now = useNow();
  const confirm = useConfirmResult();
  if (!challenge.reviewEndsAt || !isParticipant(challenge, viewerId)) return null;
  const left = timeLeft(challenge.reviewEndsAt, now);
  if (challenge.submittedBy === viewerId) {
    return (
      <Notice icon={Hourglass} title="RESULT UNDER REVIEW">
        <p>
          Waiting for {opponentName(challenge, viewerId)} to confirm · {left}
        </p>
        <p>The winnings are held until then; after that the result stands.</p>
      </Notice>
    );
  }
  return (
    <Notice icon={Scale} title="CONFIRM OR DISPUTE THIS RESULT" tone="warning">
      <p>
        {opponentName(challenge, viewerId)} reported {challenge.creatorScore}–
        {challenge.acceptorScore}. If you do nothing, it stands at{' '}
        {formatDateTime(challenge.reviewEndsAt)} · {left}.
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <ConfirmMoneyButton
          trigger={
            <>
              <CheckCircle2 aria-hidden="true" />
              CONFIRM RESULT
            </>
          }
          title="Confirm this result?"
          confirmLabel="YES, CONFIRM IT"
          busyLabel="SENDING..."
          busy={confirm.isPending}
          onConfirm={() => confirm.mutate(challenge.id)}
        >
          <p>{resultMoneyLine(challenge, viewerId)}</p>
          <p>A confirmed result is final: it can no longer be disputed.</p>
        </ConfirmMoneyButton>
        <DisputeDialog challenge={challenge} />
      </div>
    </Notice>
  );
}

/** An accepted match that may not happen: call it off together, or report a no-show. */
export function MatchActions({
  challenge,
  viewerId,
}: {
  challenge: ChallengeView;
  viewerId: number;
}) {
  const now = useNow();
  const rules = useFairPlayRules();
  const requestCancel = useRequestCancel();
  const reportNoShow = useReportNoShow();
  if (challenge.status !== 'accepted' || !isParticipant(challenge, viewerId)) return null;
  const opponent = opponentName(challenge, viewerId);
  const asked = challenge.cancelRequestedBy.includes(viewerId);
  const theyAsked = challenge.cancelRequestedBy.some((id) => id !== viewerId);
  const noShowFrom =
    rules.data && challenge.acceptedAt
      ? new Date(new Date(challenge.acceptedAt).getTime() + rules.data.noShowMinutes * MINUTE_MS)
      : null;
  return (
    <Notice icon={UserX} title="CAN'T PLAY THIS MATCH?">
      {theyAsked && !asked && (
        <p>
          {opponent} asked to call this match off. Request the cancel too and both stakes are
          refunded.
        </p>
      )}
      {asked ? (
        <p>You asked to call this match off; waiting for {opponent} to agree.</p>
      ) : (
        !theyAsked && <p>If you both request the cancel, both stakes are refunded.</p>
      )}
      <div className="mt-4 flex flex-wrap gap-3">
        {!asked && (
          <Button
            variant="outline"
            disabled={requestCancel.isPending}
            onClick={() => requestCancel.mutate(challenge.id)}
          >
            <XCircle aria-hidden="true" />
            {requestCancel.isPending ? 'SENDING...' : 'REQUEST CANCEL'}
          </Button>
        )}
        {noShowFrom && noShowFrom <= now && (
          <Button
            variant="outline"
            className="border-red-400/70 text-red-300 hover:bg-red-400/10"
            disabled={reportNoShow.isPending}
            onClick={() => reportNoShow.mutate(challenge.id)}
          >
            <UserX aria-hidden="true" />
            {reportNoShow.isPending ? 'SENDING...' : 'REPORT NO-SHOW'}
          </Button>
        )}
      </div>
      {noShowFrom && noShowFrom > now && (
        <p className="mt-3 text-slate-400">
          If {opponent} does not show up, you can report a no-show from{' '}
          {formatDateTime(noShowFrom.toISOString())}.
        </p>
      )}
    </Notice>
  );
}

function evidenceFileProblem(file: File): string | null {
  const video = file.type === 'video/mp4' || file.type === 'video/webm';
  if (file.type && !video && !file.type.startsWith('image/')) return EVIDENCE_MESSAGES.invalidType;
  if (video && file.size > EVIDENCE_VIDEO_BYTES_MAX) return EVIDENCE_MESSAGES.videoTooLarge;
  if (!video && file.size > UPLOAD_BYTES_MAX) return UPLOAD_MESSAGES.tooLarge;
  return null;
}

function AddEvidenceForm({ challengeId, onDone }: { challengeId: number; onDone: () => void }) {
  const add = useAddEvidence(challengeId);
  const statementId = useId();
  const fileId = useId();
  const [statement, setStatement] = useState('');
  const [problem, setProblem] = useState<{ field: 'statement' | 'file'; text: string } | null>(
    null,
  );
  const fileInput = useRef<HTMLInputElement>(null);
  const submit = () => {
    const file = fileInput.current?.files?.[0] ?? null;
    const text = statement.trim();
    if (!text && !file) return setProblem({ field: 'statement', text: EVIDENCE_MESSAGES.empty });
    if (text.length > EVIDENCE_STATEMENT_MAX)
      return setProblem({ field: 'statement', text: EVIDENCE_MESSAGES.statementMax });
    const fileProblem = file && evidenceFileProblem(file);
    if (fileProblem) return setProblem({ field: 'file', text: fileProblem });
    setProblem(null);
    add.mutate({ statement: text, file }, { onSuccess: onDone });
  };
  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="space-y-1.5">
        <Label htmlFor={statementId}>Statement</Label>
        <Textarea
          id={statementId}
          rows={4}
          value={statement}
          aria-invalid={problem?.field === 'statement'}
          aria-describedby={problem?.field === 'statement' ? `${statementId}-error` : undefined}
          onChange={(event) => setStatement(event.currentTarget.value)}
        />
        {problem?.field === 'statement' && (
          <FieldError id={`${statementId}-error`}>{problem.text}</FieldError>
        )}
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={fileId}>Picture or video (optional)</Label>
        <input
          ref={fileInput}
          id={fileId}
          type="file"
          accept="image/*,video/mp4,video/webm"
          aria-invalid={problem?.field === 'file'}
          aria-describedby={`${fileId}-hint${problem?.field === 'file' ? ` ${fileId}-error` : ''}`}
          className="block w-full min-w-0 cursor-pointer text-sm text-slate-300 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-ink-700 file:px-3 file:py-2 file:font-display file:text-[0.7rem] file:font-semibold file:tracking-wider file:text-slate-100 hover:file:bg-ink-600"
        />
        <p id={`${fileId}-hint`} className="text-xs text-slate-400">
          A screenshot (up to 25MB) or a recording of the match, MP4 or WebM (up to 100MB).
        </p>
        {problem?.field === 'file' && (
          <FieldError id={`${fileId}-error`}>{problem.text}</FieldError>
        )}
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={add.isPending}>
        <FileUp aria-hidden="true" />
        {add.isPending ? 'SENDING...' : 'SEND EVIDENCE'}
      </Button>
    </form>
  );
}

function EvidenceItem({ item }: { item: Evidence }) {
  return (
    <li className="space-y-1 rounded-lg border border-ink-700 bg-ink-900/60 p-3">
      <p className="text-xs text-slate-400">{formatDateTime(item.createdAt)}</p>
      {item.statement && <p className="break-words whitespace-pre-line">{item.statement}</p>}
      {item.file && (
        <a
          href={item.file.url}
          className="text-accent underline underline-offset-4 hover:text-accent-strong"
        >
          {item.file.contentType.startsWith('video/')
            ? 'Download the video'
            : 'Download the picture'}
          {item.file.name ? ` (${item.file.name})` : ''}
        </a>
      )}
    </li>
  );
}

/** Each side's evidence in its own column, so both are read together. */
export function EvidenceColumns({
  challenge,
  evidence,
}: {
  challenge: ChallengeView;
  evidence: Evidence[];
}) {
  const sides = [
    { id: challenge.creatorId, name: challenge.creator.username },
    ...(challenge.acceptor
      ? [{ id: challenge.acceptor.id, name: challenge.acceptor.username }]
      : []),
  ];
  return <EvidenceBySide sides={sides} evidence={evidence} />;
}

/** The evidence of each of these players in a column of its own (a challenge's or a match's). */
export function EvidenceBySide({
  sides,
  evidence,
}: {
  sides: ReadonlyArray<{ id: number; name: string }>;
  evidence: Evidence[];
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {sides.map((side) => {
        const items = evidence.filter((item) => item.userId === side.id);
        return (
          <section
            key={side.id}
            aria-label={`Evidence from ${side.name}`}
            className="min-w-0 space-y-2"
          >
            <h3 className="font-display text-xs font-bold tracking-widest text-slate-300 uppercase">
              {side.name}
            </h3>
            {items.length === 0 ? (
              <p className="text-sm text-slate-400">No evidence yet.</p>
            ) : (
              <ul className="space-y-2 text-sm">
                {items.map((item) => (
                  <EvidenceItem key={item.id} item={item} />
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

/** A disputed challenge: both sides' evidence, and ADD EVIDENCE for its players. */
export function EvidencePanel({
  challenge,
  viewerId,
}: {
  challenge: ChallengeView;
  viewerId: number;
}) {
  const participant = isParticipant(challenge, viewerId);
  const evidence = useEvidence(challenge.id, participant);
  const [open, setOpen] = useState(false);
  if (!participant) return null;
  return (
    <Notice icon={Scale} title="EVIDENCE">
      <p>
        Both players may add a statement, a screenshot or a recording. The admin sees them side by
        side.
      </p>
      <div className="mt-4">
        {evidence.data ? (
          <EvidenceColumns challenge={challenge} evidence={evidence.data} />
        ) : evidence.isError ? (
          <p>Could not load the evidence. Please refresh the page.</p>
        ) : (
          <p className="text-slate-400">Loading evidence…</p>
        )}
      </div>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogTrigger asChild>
          <Button variant="outline" className="mt-4">
            <FileUp aria-hidden="true" />
            ADD EVIDENCE
          </Button>
        </DialogTrigger>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Add Evidence</DialogTitle>
            <DialogDescription>
              Tell the admin what happened, and add a screenshot or a recording of the match.
            </DialogDescription>
          </DialogHeader>
          <AddEvidenceForm challengeId={challenge.id} onDone={() => setOpen(false)} />
        </DialogContent>
      </Dialog>
    </Notice>
  );
}

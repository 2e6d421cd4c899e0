import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ClipboardCheck, Send } from 'lucide-react';
import {
  submitScoresBodySchema,
  type ChallengeView,
  type SubmitScoresBody,
} from '#shared/contracts/challenges.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { Textarea } from '#client/components/ui/textarea.tsx';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { useSubmitScores, type SubmitScoresInput } from '../api/submit-scores.ts';
import { useShowSubmittedResults } from './results-modal.tsx';
import { ScreenshotUpload } from './screenshot-upload.tsx';
import { toNumberOrNaN } from '#client/lib/form-values.ts';

const FIELD_NAMES = [
  'creatorScore',
  'acceptorScore',
  'screenshot',
  'notes',
  'disputeReason',
] as const;

/** The form inside the Submit Results dialog, loaded when the dialog first opens. */
export function SubmitResultsForm({
  challenge,
  viewerId,
  onSubmitted,
}: {
  challenge: ChallengeView;
  viewerId: number;
  onSubmitted: () => void;
}) {
  const showResults = useShowSubmittedResults();
  const submit = useSubmitScores(challenge.id, (result, values) =>
    showResults({
      challenge,
      viewerId,
      creatorScore: values.creatorScore,
      acceptorScore: values.acceptorScore,
      result,
    }),
  );
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    formState: { errors },
  } = useForm<SubmitScoresBody, unknown, SubmitScoresInput>({
    resolver: zodResolver(submitScoresBodySchema),
    defaultValues: {
      creatorScore: 0,
      acceptorScore: 0,
      screenshot: '',
      notes: '',
      disputeReason: '',
    },
  });

  const onSubmit = handleSubmit((values) => {
    submit.mutate(values, {
      onSuccess: onSubmitted,
      onError: (error) => applyServerFieldErrors(error, setError, FIELD_NAMES),
    });
  });

  const you = (id: number | null) => (id === viewerId ? ' (you)' : '');

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <div className="grid grid-cols-2 gap-4">
        <Field
          label="Creator Score"
          error={errors.creatorScore?.message}
          hint={`${challenge.creator.username}${you(challenge.creatorId)}`}
        >
          {(control) => (
            <Input
              {...control}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              {...register('creatorScore', { setValueAs: toNumberOrNaN })}
            />
          )}
        </Field>
        <Field
          label="Acceptor Score"
          error={errors.acceptorScore?.message}
          hint={`${challenge.acceptor?.username ?? 'Opponent'}${you(challenge.acceptorId)}`}
        >
          {(control) => (
            <Input
              {...control}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              {...register('acceptorScore', { setValueAs: toNumberOrNaN })}
            />
          )}
        </Field>
      </div>
      <Field
        label="Screenshot URL"
        error={errors.screenshot?.message}
        hint="Paste an https:// link from an image-sharing site, or upload an image below."
      >
        {(control) => (
          <Input
            {...control}
            type="url"
            inputMode="url"
            placeholder="https://"
            {...register('screenshot')}
          />
        )}
      </Field>
      <ScreenshotUpload
        challengeId={challenge.id}
        onUploaded={(url) => setValue('screenshot', url, { shouldValidate: true })}
      />
      <Field label="Notes (optional)" error={errors.notes?.message}>
        {(control) => <Textarea {...control} {...register('notes')} />}
      </Field>
      <Field
        label="Dispute Reason (optional)"
        error={errors.disputeReason?.message}
        hint="Only if something went wrong: a result with a dispute reason waits for an admin, and no money moves until then."
      >
        {(control) => <Textarea {...control} rows={2} {...register('disputeReason')} />}
      </Field>
      <p className="flex gap-2 rounded-md border border-accent/30 bg-accent/5 p-3 text-sm text-slate-200">
        <ClipboardCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent" />
        Your results and screenshot go to the admin, who reviews every match.
      </p>
      <Button type="submit" size="lg" className="w-full" disabled={submit.isPending}>
        <Send aria-hidden="true" />
        {submit.isPending ? 'SENDING...' : 'SEND RESULTS'}
      </Button>
    </form>
  );
}

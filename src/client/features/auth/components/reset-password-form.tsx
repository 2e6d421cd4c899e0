import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useLocation } from 'wouter';
import { KeyRound, RotateCcw } from 'lucide-react';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { OutcomeMessage } from '#client/components/ui/outcome-message.tsx';
import { ApiError, serverText } from '#client/lib/api-client.ts';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { resetPasswordFormSchema, type ResetPasswordValues } from '#client/lib/password-forms.ts';
import { toast } from '#client/lib/toast.ts';
import { useCompletePasswordReset } from '../api/password-reset.ts';
import { SECOND_STEP_NOTE, SECOND_STEP_PATH } from '../lib/second-step.ts';

/** A link that is unknown, used or expired, whether the server says so by code or by field. */
function isInvalidLink(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.code === 'INVALID_TOKEN' || !!error.fields?.token);
}

/**
 * The new password for the account of a mailed link. On success the player is signed in and
 * lands on the lobby; an account with two-factor sign-in continues on the login tab's second step.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const [, navigate] = useLocation();
  const reset = useCompletePasswordReset();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });

  if (isInvalidLink(reset.error)) {
    return (
      <>
        <OutcomeMessage tone="error">
          <p>{serverText(reset.error)}</p>
        </OutcomeMessage>
        <Button asChild size="lg" className="w-full">
          <Link href="/reset-password">
            <RotateCcw aria-hidden="true" />
            ASK FOR A NEW LINK
          </Link>
        </Button>
      </>
    );
  }

  const onSubmit = handleSubmit(({ newPassword }) =>
    reset.mutate(
      { token, newPassword },
      {
        onSuccess: (outcome) => {
          if ('twoFactorRequired' in outcome) {
            toast({ title: 'PASSWORD RESET', description: SECOND_STEP_NOTE });
            navigate(SECOND_STEP_PATH);
            return;
          }
          toast({ title: 'PASSWORD RESET', description: SECURITY_MESSAGES.resetDone });
          navigate('/');
        },
        onError: (error) => {
          if (isInvalidLink(error)) return;
          if (error instanceof ApiError && error.fields?.newPassword) {
            applyServerFieldErrors(error, setError, ['newPassword']);
            return;
          }
          toast({
            title: 'PASSWORD NOT RESET',
            description: error instanceof ApiError ? serverText(error) : error.message,
            variant: 'destructive',
          });
        },
      },
    ),
  );

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <Field label="New password" error={errors.newPassword?.message}>
        {(control) => (
          <Input
            {...control}
            type="password"
            autoComplete="new-password"
            {...register('newPassword')}
          />
        )}
      </Field>
      <Field label="Confirm password" error={errors.confirmPassword?.message}>
        {(control) => (
          <Input
            {...control}
            type="password"
            autoComplete="new-password"
            {...register('confirmPassword')}
          />
        )}
      </Field>
      <Button type="submit" size="lg" className="w-full" disabled={reset.isPending}>
        <KeyRound aria-hidden="true" />
        {reset.isPending ? 'RESETTING...' : 'RESET PASSWORD'}
      </Button>
    </form>
  );
}

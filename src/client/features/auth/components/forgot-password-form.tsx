import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Send } from 'lucide-react';
import {
  passwordResetBodySchema,
  type PasswordResetBody,
} from '#shared/contracts/account-security.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { OutcomeMessage } from '#client/components/ui/outcome-message.tsx';
import { ApiError, serverText } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { useRequestPasswordReset } from '../api/password-reset.ts';

/**
 * Asks for a reset link by username. The answer is the server's one sentence, the same whether the
 * account exists or not (docs/accounts.md#account-security), so the page gives away nothing about
 * who plays here.
 */
export function ForgotPasswordForm() {
  const request = useRequestPasswordReset();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<PasswordResetBody>({
    resolver: zodResolver(passwordResetBodySchema),
    defaultValues: { username: '' },
  });

  if (request.data) {
    return (
      <OutcomeMessage tone="success">
        <p>{request.data.message}</p>
      </OutcomeMessage>
    );
  }

  const onSubmit = handleSubmit((values) =>
    request.mutate(values, {
      onError: (error) =>
        toast({
          title: 'RESET LINK NOT SENT',
          description: error instanceof ApiError ? serverText(error) : error.message,
          variant: 'destructive',
        }),
    }),
  );

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <Field label="Username" error={errors.username?.message}>
        {(control) => <Input {...control} autoComplete="username" {...register('username')} />}
      </Field>
      <Button type="submit" size="lg" className="w-full" disabled={request.isPending}>
        <Send aria-hidden="true" />
        {request.isPending ? 'SENDING...' : 'SEND RESET LINK'}
      </Button>
    </form>
  );
}

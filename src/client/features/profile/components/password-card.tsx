import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { ApiError, serverText } from '#client/lib/api-client.ts';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { changePasswordFormSchema, type ChangePasswordValues } from '#client/lib/password-forms.ts';
import { toast } from '#client/lib/toast.ts';
import { useChangePassword } from '../api/change-password.ts';

const EMPTY: ChangePasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Change password (docs/accounts.md#account-security): the current one, then the new one twice. */
export function PasswordCard() {
  const titleId = useId();
  const changePassword = useChangePassword();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: EMPTY,
  });

  const onSubmit = handleSubmit(({ currentPassword, newPassword }) =>
    changePassword.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => reset(EMPTY),
        onError: (error) => {
          if (error instanceof ApiError && error.fields) {
            applyServerFieldErrors(error, setError, ['currentPassword', 'newPassword']);
            return;
          }
          toast({
            title: 'PASSWORD NOT CHANGED',
            description: error instanceof ApiError ? serverText(error) : error.message,
            variant: 'destructive',
          });
        },
      },
    ),
  );

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Change password</CardTitle>
        <CardDescription>Changing it signs out your other devices.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
          <Field label="Current password" error={errors.currentPassword?.message}>
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="current-password"
                {...register('currentPassword')}
              />
            )}
          </Field>
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
          <Field label="Confirm new password" error={errors.confirmPassword?.message}>
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="new-password"
                {...register('confirmPassword')}
              />
            )}
          </Field>
          <Button
            type="submit"
            variant="outline"
            className="w-full"
            disabled={changePassword.isPending}
          >
            <KeyRound aria-hidden="true" />
            {changePassword.isPending ? 'CHANGING...' : 'CHANGE PASSWORD'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

import { MailCheck } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { OutcomeMessage } from '#client/components/ui/outcome-message.tsx';
import { ApiError, serverText } from '#client/lib/api-client.ts';
import { useVerifyEmail } from '../api/verify-email.ts';

/**
 * The e-mail address is proven by a press of the button, not by opening the link: mail scanners
 * open links to check them, and would otherwise verify an address nobody has read.
 */
export function VerifyEmailPanel({ token }: { token: string }) {
  const verify = useVerifyEmail();

  if (verify.data) {
    return (
      <OutcomeMessage tone="success">
        <p>{verify.data.message}</p>
      </OutcomeMessage>
    );
  }
  // Any refusal ends the page's use: the link is unknown, used or expired, or the request failed.
  if (verify.error) {
    return (
      <OutcomeMessage tone="error">
        <p>{verify.error instanceof ApiError ? serverText(verify.error) : verify.error.message}</p>
      </OutcomeMessage>
    );
  }
  return (
    <Button
      size="lg"
      className="w-full"
      disabled={verify.isPending}
      onClick={() => verify.mutate(token)}
    >
      <MailCheck aria-hidden="true" />
      {verify.isPending ? 'VERIFYING...' : 'VERIFY MY E-MAIL'}
    </Button>
  );
}

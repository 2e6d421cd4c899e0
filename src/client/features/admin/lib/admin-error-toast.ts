import { ApiError } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';

/**
 * docs/product.md#messages: admin failures toast `Error` with the server's message, or a fallback
 * in the action's own words when no answer came back (a lost connection, say).
 */
export function adminErrorToast(error: Error, fallback: string): void {
  toast({
    title: 'Error',
    description: error instanceof ApiError ? error.message : fallback,
    variant: 'destructive',
  });
}

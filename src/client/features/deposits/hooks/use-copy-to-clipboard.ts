import { useEffect, useState } from 'react';
import { toast } from '#client/lib/toast.ts';
import { COPY_CONFIRMATION_MS } from '../lib/deposit-timing.ts';

/**
 * Copies text and reports `copied` for 2 s (docs/product.md#screens), so a copy button can show a
 * check mark and then turn back into a copy icon.
 */
export function useCopyToClipboard(): { copied: boolean; copy: (text: string) => Promise<void> } {
  const [copyId, setCopyId] = useState<number | null>(null);

  useEffect(() => {
    if (copyId === null) return;
    const timer = setTimeout(() => setCopyId(null), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copyId]);

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      toast({
        title: 'Copy failed',
        description: 'Select the text and copy it by hand.',
        variant: 'destructive',
      });
      return;
    }
    // A new value restarts the 2 s even when the previous check mark is still showing.
    setCopyId((previous) => (previous ?? 0) + 1);
  };

  return { copied: copyId !== null, copy };
}

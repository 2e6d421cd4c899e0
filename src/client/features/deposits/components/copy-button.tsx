import { Check, Copy } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { useCopyToClipboard } from '../hooks/use-copy-to-clipboard.ts';

export interface CopyButtonProps {
  value: string;
  /** What is copied, for the button's name: "Copy address", then "Address copied". */
  what: string;
}

/**
 * A copy button whose check mark turns back into a copy icon after 2 s (docs/product.md#screens).
 */
export function CopyButton({ value, what }: CopyButtonProps) {
  const { copied, copy } = useCopyToClipboard();
  const name = copied ? `${what.charAt(0).toUpperCase()}${what.slice(1)} copied` : `Copy ${what}`;
  return (
    <Button
      variant="outline"
      size="icon"
      aria-label={name}
      title={name}
      data-copied={copied || undefined}
      onClick={() => void copy(value)}
    >
      {copied ? (
        <Check aria-hidden="true" className="text-emerald-300" />
      ) : (
        <Copy aria-hidden="true" />
      )}
    </Button>
  );
}

import { FlaskConical } from 'lucide-react';
import { Badge } from '#client/components/ui/badge.tsx';

/** docs/payments.md: a sandbox provider is labelled TEST MODE wherever it takes a payment. */
export function TestModeBadge() {
  return (
    <Badge variant="warning">
      <FlaskConical aria-hidden="true" className="size-3" />
      TEST MODE
    </Badge>
  );
}

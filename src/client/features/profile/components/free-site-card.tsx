import { useId } from 'react';
import { ExternalLink, Gamepad2 } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { useProfileConfig } from '../api/get-profile-config.ts';

/** Only a web address is made a link: a misconfigured value must not become `javascript:`. */
export function safeExternalHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * docs/product.md#screens: the link to the separate free site; hidden while unknown or not
 * configured.
 */
export function FreeSiteCard() {
  const titleId = useId();
  const config = useProfileConfig();
  const href = config.data?.freeSiteUrl ? safeExternalHref(config.data.freeSiteUrl) : null;
  if (!href) return null;
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Play for Free</CardTitle>
        <CardDescription>
          Practise without stakes on our separate free site. No coins, no deposits.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline" className="w-full">
          <a href={href} target="_blank" rel="noopener noreferrer">
            <Gamepad2 aria-hidden="true" />
            VISIT THE FREE SITE
            <ExternalLink aria-hidden="true" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}

import { useId } from 'react';
import { FileDown } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { MY_DATA_EXPORT_URL } from '../api/my-data-export.ts';

/** Download my data (docs/responsible-play.md): everything the account holds, as one JSON file. */
export function MyDataCard() {
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Your data</CardTitle>
        <CardDescription>
          A copy of your profile, challenges, transactions, deposits, payouts and notifications, as
          one JSON file.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline" className="w-full sm:w-auto">
          <a href={MY_DATA_EXPORT_URL} download>
            <FileDown aria-hidden="true" />
            DOWNLOAD MY DATA
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}

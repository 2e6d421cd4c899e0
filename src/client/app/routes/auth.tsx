import { Redirect } from 'wouter';
import { Card } from '#client/components/ui/card.tsx';
import { OutcomeMessage } from '#client/components/ui/outcome-message.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#client/components/ui/tabs.tsx';
import { useUser } from '#client/features/auth/api/get-user.ts';
import { AuthFeaturePanel } from '#client/features/auth/components/auth-feature-panel.tsx';
import { LoginForm } from '#client/features/auth/components/login-form.tsx';
import { RegisterForm } from '#client/features/auth/components/register-form.tsx';
import { useSignedOutNotice } from '#client/features/auth/lib/signed-out-notice.ts';
import { Wordmark } from '../layout/wordmark.tsx';

/** /auth: Login and Register tabs beside the feature panel; a signed-in visitor goes home. */
export function AuthPage() {
  const { user, isLoading } = useUser();
  // Why the player is here when it is news: an account just closed (docs/responsible-play.md).
  const notice = useSignedOutNotice();
  if (isLoading) return <PageSpinner />;
  if (user) return <Redirect to="/" replace />;

  return (
    <div className="grid items-start gap-12 lg:grid-cols-[minmax(0,27rem)_minmax(0,1fr)] lg:gap-16">
      <div className="space-y-6">
        <div className="space-y-3">
          <Wordmark />
          <h1 className="font-display text-2xl font-black tracking-wide text-white">
            ENTER THE ARENA
          </h1>
          <p className="text-slate-300">Log in to your account or register to start competing.</p>
        </div>
        {notice && (
          <OutcomeMessage tone="success">
            <p className="font-display font-bold tracking-wider">{notice.title}</p>
            <p>{notice.description}</p>
          </OutcomeMessage>
        )}
        <Card highlight className="p-5 sm:p-6">
          <Tabs defaultValue="login">
            <TabsList aria-label="Account">
              <TabsTrigger value="login">Login</TabsTrigger>
              <TabsTrigger value="register">Register</TabsTrigger>
            </TabsList>
            <TabsContent value="login">
              <LoginForm />
            </TabsContent>
            <TabsContent value="register">
              <RegisterForm />
            </TabsContent>
          </Tabs>
        </Card>
      </div>
      <AuthFeaturePanel />
    </div>
  );
}

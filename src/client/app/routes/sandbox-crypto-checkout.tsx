import { PageHeader } from '#client/components/ui/page-header.tsx';
import { SandboxCryptoCheckout } from '#client/features/deposits/components/sandbox-crypto-checkout.tsx';

/** /sandbox/crypto/:paymentId: the local checkout page of a TEST MODE crypto payment. */
export function SandboxCryptoCheckoutPage({ paymentId }: { paymentId: string }) {
  return (
    <>
      <PageHeader
        eyebrow="SANDBOX"
        title="TEST CHECKOUT"
        description="Simulate what the blockchain does with your sandbox crypto payment."
      />
      <SandboxCryptoCheckout paymentId={paymentId} />
    </>
  );
}

/**
 * Deposits by card and cryptocurrency, through Stripe, NOWPayments or the offline sandbox
 * (docs/payments.md).
 */
export { NowPaymentsError, createNowPaymentsClient } from './providers/nowpayments-client.ts';
export { verifyNowPaymentsSignature } from './providers/nowpayments-signature.ts';
export { selectPaymentProviders } from './providers/select-providers.ts';
export {
  PaymentProviderError,
  type CardDisputeReport,
  type CardFraudWarningReport,
  type CardRefundOutcome,
  type CardProvider,
  type DisputeEvidence,
} from './providers/types.ts';
export { cardCreditsSince, findPayment, lockPayment } from './repository.ts';
export { paymentRoutes } from './routes.ts';
export type { DisputeRecorder } from './service.ts';
export { toPaymentRecord } from './view.ts';

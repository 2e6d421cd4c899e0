/**
 * Notifications: written with their cause, pushed over /ws, listed and read
 * (docs/fair-play.md#notifications).
 */
export {
  notify,
  publishNews,
  tellingSteps,
  toNotificationView,
  toldNews,
  type NewNotification,
  type StoredNews,
} from './notify.ts';
export { listNotifications } from './repository.ts';
export { notificationRoutes } from './routes.ts';

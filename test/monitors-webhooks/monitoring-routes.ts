import alerts from '../../api/alerts/routes.ts';
import monitors from '../../api/monitors/routes.ts';
import webhooks from '../../api/webhooks/routes.ts';

/** The endpoints the HTTP tests of this area exercise: monitors, their alerts, webhook endpoints and deliveries. */
export const MONITORING_ROUTES = [...monitors, ...alerts, ...webhooks];

import listAlerts from './list-alerts.ts';

export default [listAlerts];

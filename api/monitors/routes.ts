import createMonitor from './create-monitor.ts';
import deleteMonitor from './delete-monitor.ts';
import getMonitor from './get-monitor.ts';
import listMonitors from './list-monitors.ts';
import updateMonitor from './update-monitor.ts';

export default [createMonitor, listMonitors, getMonitor, updateMonitor, deleteMonitor];

import { p } from '../core/params.ts';

export const MONITORS_TAG = 'Monitors';
export const monitorIdParam = { monitor_id: p.str({ required: true, description: 'Monitor id (UUID).' }) };

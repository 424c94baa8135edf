import listCyberIncidents from './list-cyber-incidents.ts';

export default [listCyberIncidents];

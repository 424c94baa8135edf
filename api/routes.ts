import type { Endpoint } from './core/endpoint.ts';
import holdings13f from './13f/routes.ts';
import advisers from './advisers/routes.ts';
import alerts from './alerts/routes.ts';
import board from './board/routes.ts';
import brokerDealers from './broker-dealers/routes.ts';
import compensation from './compensation/routes.ts';
import cyberIncidents from './cyber-incidents/routes.ts';
import enforcement from './enforcement/routes.ts';
import entities from './entities/routes.ts';
import resolveEntity from './entities/resolve-entity.ts';
import events from './events/routes.ts';
import filingParsers from './filing-parsers/routes.ts';
import filings from './filings/routes.ts';
import financialStatements from './financial-statements/routes.ts';
import financials from './financials/routes.ts';
import companyFacts from './financials/company-facts.ts';
import formCrs from './form-crs/routes.ts';
import form144 from './form144/routes.ts';
import fullText from './full-text/routes.ts';
import iapdIndividuals from './iapd-individuals/routes.ts';
import insider from './insider/routes.ts';
import litigation from './litigation/routes.ts';
import monitors from './monitors/routes.ts';
import ncen from './ncen/routes.ts';
import nport from './nport/routes.ts';
import ntLate from './nt-late/routes.ts';
import ownership from './ownership/routes.ts';
import patents from './patents/routes.ts';
import privateFundStats from './private-fund-stats/routes.ts';
import privateFunds from './private-funds/routes.ts';
import proxy from './proxy/routes.ts';
import raises from './raises/routes.ts';
import service from './service/routes.ts';
import tradingSuspensions from './trading-suspensions/routes.ts';
import webhooks from './webhooks/routes.ts';
import whistleblower from './whistleblower/routes.ts';

/**
 * Every endpoint the server mounts, listed explicitly (no folder discovery): an area's `routes.ts` lists its
 * endpoints, one file per custom route. Areas in name order, which is also the order of /openapi.json. Tests mount
 * only their area's list (createTestApp({ routes })), so a test file loads the modules it exercises and no others.
 */
export const ROUTES: readonly Endpoint[] = [
  ...holdings13f,
  ...advisers,
  ...alerts,
  ...board,
  ...brokerDealers,
  ...compensation,
  ...cyberIncidents,
  ...enforcement,
  ...entities,
  resolveEntity,
  ...events,
  ...filingParsers,
  ...filings,
  ...financialStatements,
  ...financials,
  companyFacts,
  ...formCrs,
  ...form144,
  ...fullText,
  ...iapdIndividuals,
  ...insider,
  ...litigation,
  ...monitors,
  ...ncen,
  ...nport,
  ...ntLate,
  ...ownership,
  ...patents,
  ...privateFundStats,
  ...privateFunds,
  ...proxy,
  ...raises,
  ...service,
  ...tradingSuspensions,
  ...webhooks,
  ...whistleblower,
];

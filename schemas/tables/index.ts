import type { TableSpec } from '../table.ts';
import { filings13f, holdings13f, managers13f, unmappedCusips13f, holdings13fByManager } from './13f.ts';
import { advisersTable } from './advisers.ts';
import { boardMembersTable } from './board.ts';
import { brokerDealersTable } from './broker-dealers.ts';
import { enforcementTable } from './enforcement.ts';
import { entitiesTable, entityNamesTable, entityTickersTable } from './entities.ts';
import { eventsTable } from './events.ts';
import { filingSectionsTable } from './filing-sections.ts';
import { filingsTable } from './filings.ts';
import { financialStatementsTable } from './financial-statements.ts';
import { financialFactsTable } from './financials.ts';
import { formCrsTable } from './form-crs.ts';
import { form144Table } from './form144.ts';
import { iapdIndividualsTable } from './iapd-individuals.ts';
import { insiderTransactionsTable, insiderHoldingsTable } from './insider.ts';
import { litigationTable } from './litigation.ts';
import { fundProviders } from './ncen.ts';
import { fundHoldings } from './nport.ts';
import { ntLateTable } from './nt-late.ts';
import { beneficialOwnershipTable } from './ownership.ts';
import { patentGrantsTable } from './patents.ts';
import { privateFundStatsTable } from './private-fund-stats.ts';
import { privateFundsTable } from './private-funds.ts';
import { proxyOfficersTable, proxyCompensationTable } from './proxy.ts';
import { formDOfferingsTable } from './raises.ts';
import { tradingSuspensionsTable } from './trading-suspensions.ts';
import { whistleblowerTable } from './whistleblower.ts';

/** Every lake table, events included: the lake's views, the API and the registry all read this one list. */
export const ALL_TABLES: readonly TableSpec[] = [
  filings13f,
  holdings13f,
  managers13f,
  unmappedCusips13f,
  holdings13fByManager,
  advisersTable,
  boardMembersTable,
  brokerDealersTable,
  enforcementTable,
  entitiesTable,
  entityNamesTable,
  entityTickersTable,
  eventsTable,
  filingSectionsTable,
  filingsTable,
  financialStatementsTable,
  financialFactsTable,
  formCrsTable,
  form144Table,
  iapdIndividualsTable,
  insiderTransactionsTable,
  insiderHoldingsTable,
  litigationTable,
  fundProviders,
  fundHoldings,
  ntLateTable,
  beneficialOwnershipTable,
  patentGrantsTable,
  privateFundStatsTable,
  privateFundsTable,
  proxyOfficersTable,
  proxyCompensationTable,
  formDOfferingsTable,
  tradingSuspensionsTable,
  whistleblowerTable,
];

import createEndpoint from './create-endpoint.ts';
import deleteEndpoint from './delete-endpoint.ts';
import listDeliveries from './list-deliveries.ts';
import listEndpoints from './list-endpoints.ts';
import retryDelivery from './retry-delivery.ts';
import rotateSecret from './rotate-secret.ts';
import testEndpoint from './test-endpoint.ts';

export default [createEndpoint, listEndpoints, deleteEndpoint, rotateSecret, testEndpoint, listDeliveries, retryDelivery];

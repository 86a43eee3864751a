// A load-balancing worker as a fetch handler, run inside the mock: `--worker my-lb=examples/lb-workers/fetch-handler.mjs`.
// For an endpoint of type LOAD_BALANCER the module's default export gets each request as a web Request.
export default async function worker(request) {
  const url = new URL(request.url);
  if (url.pathname === '/ping') return Response.json({ status: 'healthy' });
  if (url.pathname === '/generate' && request.method === 'POST') {
    const { prompt = '' } = await request.json();
    return Response.json({ generated_text: `Generated text for: ${prompt}` });
  }
  return new Response('not found', { status: 404 });
}

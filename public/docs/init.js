// Swagger UI over this server's OpenAPI document (see functions/routes/docs.ts). Schemas are shown as models,
// expanded, so every request body and response shows its fields. Swagger renders after the page has loaded, so a
// link to the problem-type catalogue under it (`/docs#problems`) is scrolled to once it has.
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelRendering: 'model',
  defaultModelExpandDepth: 1,
  defaultModelsExpandDepth: 1,
  displayRequestDuration: true,
  tryItOutEnabled: false,
  validatorUrl: null,
  onComplete: () => {
    if (location.hash === '#problems') document.getElementById('problems')?.scrollIntoView();
  },
});

package dev.idempotency.web.servlet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.util.LinkedCaseInsensitiveMap;

/**
 * A copy of a request as it was when its call detached from it (the server's async timeout, a client gone), for
 * rendering the work's late answer exactly as Spring MVC would have: its headers (content negotiation), attributes (the
 * handler, producible media types, URI variables), parameters, principal and locale. The container recycles the
 * request itself once it ends; anything not copied here is answered from it and may fail then.
 */
final class FrozenRequest extends HttpServletRequestWrapper {

    private final Map<String, List<String>> headers = new LinkedCaseInsensitiveMap<>(Locale.ROOT);
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private final Map<String, String[]> parameters;
    private final List<Locale> locales;
    private final String method;
    private final String requestUri;
    private final StringBuffer requestUrl;
    private final String contextPath;
    private final String servletPath;
    private final @Nullable String pathInfo;
    private final @Nullable String queryString;
    private final @Nullable String contentType;
    private final @Nullable String characterEncoding;
    private final @Nullable Principal principal;
    private final ServletContext servletContext;

    private FrozenRequest(HttpServletRequest request) {
        super(request);
        for (Enumeration<String> names = request.getHeaderNames(); names.hasMoreElements(); ) {
            String name = names.nextElement();
            headers.put(name, Collections.list(request.getHeaders(name)));
        }
        for (Enumeration<String> names = request.getAttributeNames(); names.hasMoreElements(); ) {
            String name = names.nextElement();
            Object value = request.getAttribute(name);
            if (value != null && !name.equals(ServletExchange.ATTRIBUTE)) {
                attributes.put(name, value);
            }
        }
        parameters = new LinkedHashMap<>(request.getParameterMap());
        locales = Collections.list(request.getLocales());
        method = request.getMethod();
        requestUri = request.getRequestURI();
        requestUrl = new StringBuffer(request.getRequestURL());
        contextPath = request.getContextPath();
        servletPath = request.getServletPath();
        pathInfo = request.getPathInfo();
        queryString = request.getQueryString();
        contentType = request.getContentType();
        characterEncoding = request.getCharacterEncoding();
        principal = request.getUserPrincipal();
        servletContext = request.getServletContext();
    }

    /** Copies {@code request}; call while it is still in use (on a container thread of its own). */
    static FrozenRequest of(HttpServletRequest request) {
        return new FrozenRequest(request);
    }

    @Override
    public @Nullable String getHeader(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
        return Collections.enumeration(headers.getOrDefault(name, List.of()));
    }

    @Override
    public Enumeration<String> getHeaderNames() {
        return Collections.enumeration(new ArrayList<>(headers.keySet()));
    }

    @Override
    public int getIntHeader(String name) {
        String value = getHeader(name);
        return value == null ? -1 : Integer.parseInt(value);
    }

    @Override
    public @Nullable Object getAttribute(String name) {
        return attributes.get(name);
    }

    @Override
    public Enumeration<String> getAttributeNames() {
        return Collections.enumeration(new ArrayList<>(attributes.keySet()));
    }

    @Override
    public void setAttribute(String name, @Nullable Object value) {
        if (value == null) {
            attributes.remove(name);
        } else {
            attributes.put(name, value);
        }
    }

    @Override
    public void removeAttribute(String name) {
        attributes.remove(name);
    }

    @Override
    public @Nullable String getParameter(String name) {
        String[] values = parameters.get(name);
        return values == null || values.length == 0 ? null : values[0];
    }

    @Override
    public Map<String, String[]> getParameterMap() {
        return Collections.unmodifiableMap(parameters);
    }

    @Override
    public Enumeration<String> getParameterNames() {
        return Collections.enumeration(parameters.keySet());
    }

    @Override
    public String @Nullable [] getParameterValues(String name) {
        return parameters.get(name);
    }

    @Override
    public Locale getLocale() {
        return locales.isEmpty() ? Locale.getDefault() : locales.get(0);
    }

    @Override
    public Enumeration<Locale> getLocales() {
        return Collections.enumeration(locales);
    }

    @Override
    public String getMethod() {
        return method;
    }

    @Override
    public String getRequestURI() {
        return requestUri;
    }

    @Override
    public StringBuffer getRequestURL() {
        return new StringBuffer(requestUrl);
    }

    @Override
    public String getContextPath() {
        return contextPath;
    }

    @Override
    public String getServletPath() {
        return servletPath;
    }

    @Override
    public @Nullable String getPathInfo() {
        return pathInfo;
    }

    @Override
    public @Nullable String getQueryString() {
        return queryString;
    }

    @Override
    public @Nullable String getContentType() {
        return contentType;
    }

    @Override
    public @Nullable String getCharacterEncoding() {
        return characterEncoding;
    }

    @Override
    public @Nullable Principal getUserPrincipal() {
        return principal;
    }

    @Override
    public ServletContext getServletContext() {
        return servletContext;
    }

    @Override
    public DispatcherType getDispatcherType() {
        return DispatcherType.ASYNC;
    }

    @Override
    public boolean isAsyncStarted() {
        return false;
    }
}

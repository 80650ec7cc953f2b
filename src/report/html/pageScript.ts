/**
 * The page's one script: inline, allowed by its hash in the page's Content-Security-Policy. It does
 * three things: the class filters show and hide matrix rows; the matrix is one tab stop whose cells
 * the arrow keys move through (a roving tabindex: Home and End go to a row's ends, Enter follows a
 * cell's place); focusing or hovering a cell shows it in full in the detail panel. It writes text
 * only (textContent, never markup), so nothing from the report can become code.
 */
export const SCRIPT = `(function () {
  'use strict';
  var table = document.getElementById('matrix-table');
  var detail = document.getElementById('detail');
  if (!table || !detail) return;
  var current = table.querySelector('td[tabindex="0"]');
  // Every cell focusable by the arrow keys; one tab stop for the whole matrix.
  var cells = table.getElementsByTagName('td');
  for (var i = 0; i < cells.length; i++) if (cells[i] !== current) cells[i].tabIndex = -1;
  function rows() {
    var out = [];
    for (var b = 0; b < table.tBodies.length; b++) {
      var body = table.tBodies[b];
      if (body.hidden) continue;
      for (var r = 0; r < body.rows.length; r++) if (!body.rows[r].hidden && body.rows[r].dataset.class) out.push(body.rows[r]);
    }
    return out;
  }
  function provider(cell) {
    return table.tHead.rows[0].cells[cell.cellIndex].textContent;
  }
  function show(cell) {
    var row = cell.parentElement;
    var list = document.createElement('dl');
    function add(term, text, href) {
      if (!text) return;
      var dt = document.createElement('dt');
      dt.textContent = term;
      var dd = document.createElement('dd');
      if (href) {
        var a = document.createElement('a');
        a.href = href;
        a.textContent = text;
        dd.appendChild(a);
      } else dd.textContent = text;
      list.appendChild(dt);
      list.appendChild(dd);
    }
    var value = cell.querySelector('var');
    var place = cell.querySelector('a');
    add('provider', provider(cell));
    add('subject', row.parentElement.dataset.subject);
    add('facet', row.dataset.facet);
    add('state', cell.querySelector('i').textContent);
    add('value', value ? value.textContent : '');
    add('accepted because', cell.dataset.reason);
    if (place) add('place', place.title, place.getAttribute('href'));
    add('scenarios', row.dataset.scenarios);
    detail.replaceChildren(list);
  }
  function move(cell) {
    if (!cell) return;
    if (current && current !== cell) current.tabIndex = -1;
    current = cell;
    cell.tabIndex = 0;
    cell.focus();
  }
  table.addEventListener('focusin', function (event) {
    var cell = event.target.closest('td');
    if (!cell) return;
    if (current && current !== cell) current.tabIndex = -1;
    current = cell;
    cell.tabIndex = 0;
    show(cell);
  });
  table.addEventListener('mouseover', function (event) {
    var cell = event.target.closest('td');
    if (cell) show(cell);
  });
  table.addEventListener('keydown', function (event) {
    var cell = event.target.closest('td');
    if (!cell) return;
    var all = rows();
    var r = all.indexOf(cell.parentElement);
    var c = cell.cellIndex;
    var last = cell.parentElement.cells.length - 1;
    var target = null;
    if (event.key === 'ArrowRight' && c < last) target = cell.parentElement.cells[c + 1];
    else if (event.key === 'ArrowLeft' && c > 1) target = cell.parentElement.cells[c - 1];
    else if (event.key === 'ArrowDown' && r + 1 < all.length) target = all[r + 1].cells[c];
    else if (event.key === 'ArrowUp' && r > 0) target = all[r - 1].cells[c];
    else if (event.key === 'Home') target = (event.ctrlKey ? all[0] : cell.parentElement).cells[1];
    else if (event.key === 'End') target = (event.ctrlKey ? all[all.length - 1] : cell.parentElement).cells[last];
    else if (event.key === 'Enter') {
      var link = cell.querySelector('a');
      if (link) link.click();
      return;
    } else return;
    event.preventDefault();
    move(target);
  });
  var filters = document.querySelectorAll('input[data-filter]');
  function filter() {
    var shown = {};
    for (var i = 0; i < filters.length; i++) shown[filters[i].dataset.filter] = filters[i].checked;
    for (var b = 0; b < table.tBodies.length; b++) {
      var body = table.tBodies[b];
      var any = false;
      for (var r = 0; r < body.rows.length; r++) {
        var row = body.rows[r];
        if (!row.dataset.class) continue;
        row.hidden = !shown[row.dataset.class];
        any = any || !row.hidden;
      }
      body.hidden = !any;
    }
    if (!current || current.closest('[hidden]')) {
      if (current) current.tabIndex = -1;
      var first = rows()[0];
      current = first ? first.cells[1] : null;
      if (current) current.tabIndex = 0;
    }
  }
  for (var f = 0; f < filters.length; f++) filters[f].addEventListener('change', filter);
})();
`;

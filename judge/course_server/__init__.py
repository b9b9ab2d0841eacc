"""A course's judge over HTTP (`judge serve`, `judge submit`): the hidden cases, reference solvers
and checkers stay on the server; students upload a file and read back what their assignment's
feedback level shows.

- ``submissions.py`` every table of the server and all of its SQL (the one module a PostgreSQL
  store would replace);
- ``tokens.py`` the roster's tokens: issued, stored hashed, compared in constant time;
- ``judging.py`` one upload judged as `judge run` judges it, its rows written as they are decided;
- ``queue.py`` the queue, fair between students, and the threads that judge it;
- ``app.py`` the Starlette application: the students' and teachers' routes and the page;
- ``serving.py`` uvicorn around it, with the scoreboard server's connection limits;
- ``client.py`` what `judge submit`, `judge status` and `judge login` speak: the standard library
  only, so they run on any system.
"""

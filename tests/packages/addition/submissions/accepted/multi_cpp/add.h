double add(double a, double b);

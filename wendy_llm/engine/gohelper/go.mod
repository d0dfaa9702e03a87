module wendyhelper

go 1.22
